output "gateway_role_arn" {
  description = "Role of the cms-gateway service account (eks.amazonaws.com/role-arn)."
  value       = aws_iam_role.gateway.arn
}

output "worker_role_arn" {
  description = "Role of the cms-worker service account."
  value       = aws_iam_role.worker.arn
}

output "external_secrets_role_arn" {
  description = "Role of the cms-external-secrets service account (the SecretStore's identity)."
  value       = aws_iam_role.external_secrets.arn
}
