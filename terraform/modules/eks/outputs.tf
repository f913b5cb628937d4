output "cluster_name" {
  description = "Name of the EKS cluster (aws eks update-kubeconfig --name …)."
  value       = aws_eks_cluster.this.name
}

output "cluster_endpoint" {
  description = "Kubernetes API endpoint."
  value       = aws_eks_cluster.this.endpoint
}

output "cluster_security_group_id" {
  description = "Security group EKS gives the control plane and managed nodes (and so the pods)."
  value       = aws_eks_cluster.this.vpc_config[0].cluster_security_group_id
}

output "oidc_provider_arn" {
  description = "IAM OIDC provider of the cluster (IRSA trust)."
  value       = aws_iam_openid_connect_provider.this.arn
}

output "oidc_issuer" {
  description = "OIDC issuer URL of the cluster."
  value       = aws_eks_cluster.this.identity[0].oidc[0].issuer
}

output "ecr_repository_url" {
  description = "Registry path of the platform's image (the prod overlay's images.newName)."
  value       = aws_ecr_repository.cms.repository_url
}
