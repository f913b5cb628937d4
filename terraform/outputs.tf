output "eks_cluster_name" {
  description = "aws eks update-kubeconfig --region <region> --name <this>."
  value       = module.eks.cluster_name
}

output "ecr_repository_url" {
  description = "Where to push the platform's image; the prod overlay's images[cms].newName."
  value       = module.eks.ecr_repository_url
}

output "media_bucket" {
  description = "S3_BUCKET."
  value       = module.s3.bucket_name
}

output "media_cdn_url" {
  description = "MEDIA_PUBLIC_URL (CloudFront in front of the bucket)."
  value       = module.s3.cdn_url
}

output "api_cdn_domain" {
  description = "The content API's CloudFront host name (*.BASE_DOMAIN points at it), or null without api_cdn_enabled."
  value       = var.api_cdn_enabled ? module.cdn[0].domain_name : null
}

output "api_cdn_distribution_id" {
  description = "The content API's CloudFront distribution (for aws cloudfront create-invalidation), or null."
  value       = var.api_cdn_enabled ? module.cdn[0].distribution_id : null
}

output "certificate_arn" {
  description = "ACM wildcard certificate of BASE_DOMAIN and *.BASE_DOMAIN (the ALB's)."
  value       = module.dns.certificate_arn
}

output "gateway_role_arn" {
  description = "IAM role of the cms-gateway service account."
  value       = module.iam.gateway_role_arn
}

output "worker_role_arn" {
  description = "IAM role of the cms-worker service account."
  value       = module.iam.worker_role_arn
}

output "external_secrets_role_arn" {
  description = "IAM role of the cms-external-secrets service account."
  value       = module.iam.external_secrets_role_arn
}

output "secret_names" {
  description = "Secrets Manager name of each value the pods read, by environment variable."
  value       = module.secrets.secret_names
}

output "database_url_secret_names" {
  description = "Per database cluster, the secret holding its connection URL."
  value       = module.secrets.database_url_secret_names
}

output "database_addresses" {
  description = "Per database cluster, the RDS host name (private)."
  value       = { for key, db in module.rds : key => db.address }
}

output "redis_endpoint" {
  description = "Redis primary host name (private, TLS)."
  value       = module.redis.primary_endpoint
}

# The prod overlay's two Terraform-made files, rendered from templates/ with this configuration's
# values: `terraform output -raw k8s_prod_resources > infra/k8s/overlays/prod/terraform-resources.yaml`
# and the same for k8s_prod_patches (terraform/README.md). The files in the repository are the
# rendering for example.tfvars (checked by test/integration/deploy-manifests.test.ts).
output "k8s_prod_resources" {
  description = "infra/k8s/overlays/prod/terraform-resources.yaml: the External Secrets identity, store and secrets."
  value = templatefile("${path.module}/templates/k8s-prod-resources.yaml.tftpl", {
    region                    = var.region
    external_secrets_role_arn = module.iam.external_secrets_role_arn
    secrets                   = module.secrets.secret_names
  })
}

output "k8s_prod_patches" {
  description = "infra/k8s/overlays/prod/terraform-patches.yaml: domain, bucket, CDN, roles, certificate, network ranges."
  value = templatefile("${path.module}/templates/k8s-prod-patches.yaml.tftpl", {
    base_domain          = var.base_domain
    region               = var.region
    media_bucket         = module.s3.bucket_name
    media_cdn_url        = module.s3.cdn_url
    gateway_role_arn     = module.iam.gateway_role_arn
    worker_role_arn      = module.iam.worker_role_arn
    certificate_arn      = module.dns.certificate_arn
    load_balancer_name   = var.ingress_load_balancer_name
    vpc_cidr             = module.vpc.vpc_cidr
    public_supernet_cidr = module.vpc.public_supernet_cidr
  })
}
