output "database_password_secret_arns" {
  description = "Per cluster, the secret holding its master password (read by the rds module)."
  # The version's ARN: the rds module reads the secret only once a value is in it.
  value = { for key, v in aws_secretsmanager_secret_version.database_password : key => v.arn }
}

output "redis_auth_token_secret_arn" {
  description = "The secret holding Redis' AUTH token (read by the redis module)."
  value       = aws_secretsmanager_secret_version.redis_auth.arn
}

output "secret_names" {
  description = "Secret name of each value the pods read, by environment variable (plus KEDA_REDIS)."
  value = merge(
    { for key, s in aws_secretsmanager_secret.generated : key => s.name },
    { for key, s in aws_secretsmanager_secret.provided : key => s.name },
  )
}

output "database_url_secret_names" {
  description = "Per cluster, the secret holding its connection URL."
  value       = { for key, s in aws_secretsmanager_secret.database_url : key => s.name }
}

output "pod_readable_secret_arns" {
  description = "Secrets the External Secrets role may read (not the master password nor the bare AUTH token)."
  value = concat(
    [for s in aws_secretsmanager_secret.generated : s.arn],
    [for s in aws_secretsmanager_secret.provided : s.arn],
    [for s in aws_secretsmanager_secret.database_url : s.arn],
  )
}

output "kms_key_arn" {
  description = "KMS key encrypting the secrets (External Secrets' role needs kms:Decrypt through Secrets Manager)."
  value       = aws_kms_key.this.arn
}
