# Every credential of the platform in Secrets Manager. Generated ones (database and Redis
# passwords, APP_SECRET, METRICS_TOKEN) are made here by random_password — never written in code,
# kept only in Secrets Manager and in the (encrypted) Terraform state. Values that come from
# elsewhere (Stripe keys, the SMTP URL) get an empty secret that the operator fills with
# `aws secretsmanager put-secret-value`; until then billing is off and e-mails are logged.
resource "aws_kms_key" "this" {
  description             = "${var.name}: Secrets Manager"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  tags                    = var.tags
}

# Letters and digits only: the passwords go into URLs unescaped, and ElastiCache refuses most
# punctuation in AUTH tokens.
resource "random_password" "database" {
  for_each = var.database_clusters
  length   = 40
  special  = false
}

resource "random_password" "redis_auth" {
  length  = 64
  special = false
}

resource "random_password" "app_secret" {
  length  = 64
  special = false
}

resource "random_password" "metrics_token" {
  length  = 48
  special = false
}

resource "aws_secretsmanager_secret" "database_password" {
  for_each                = var.database_clusters
  name                    = "${var.name}/postgres/${each.key}/master-password"
  kms_key_id              = aws_kms_key.this.arn
  recovery_window_in_days = var.recovery_window_days
  tags                    = var.tags
}

resource "aws_secretsmanager_secret_version" "database_password" {
  for_each      = var.database_clusters
  secret_id     = aws_secretsmanager_secret.database_password[each.key].id
  secret_string = random_password.database[each.key].result
}

resource "aws_secretsmanager_secret" "redis_auth" {
  name                    = "${var.name}/redis/auth-token"
  kms_key_id              = aws_kms_key.this.arn
  recovery_window_in_days = var.recovery_window_days
  tags                    = var.tags
}

resource "aws_secretsmanager_secret_version" "redis_auth" {
  secret_id     = aws_secretsmanager_secret.redis_auth.id
  secret_string = random_password.redis_auth.result
}

locals {
  # TLS to RDS, verified against the RDS CA bundle the prod overlay mounts (NODE_EXTRA_CA_CERTS).
  database_urls = {
    for key, ep in var.database_endpoints :
    key => "postgres://${var.database_username}:${random_password.database[key].result}@${ep.address}:${ep.port}/${ep.database_name}?sslmode=require"
  }
  redis_url = "rediss://:${random_password.redis_auth.result}@${var.redis_endpoint}:${var.redis_port}"

  # The clusters other than the control plane's, as the platform's DATABASE_URLS (`name=url,…`).
  # A single space when there are none: Secrets Manager refuses an empty value, the platform
  # reads a blank one as unset.
  other_clusters      = [for key, url in local.database_urls : "${key}=${url}" if key != var.control_plane_cluster]
  database_urls_value = length(local.other_clusters) > 0 ? join(",", local.other_clusters) : " "

  # Secrets the platform's pods read (through External Secrets), by environment variable.
  generated = {
    DATABASE_URL  = local.database_urls[var.control_plane_cluster]
    DATABASE_URLS = local.database_urls_value
    REDIS_URL     = local.redis_url
    APP_SECRET    = random_password.app_secret.result
    METRICS_TOKEN = random_password.metrics_token.result
    # KEDA's Redis scaler takes the address and the password apart.
    KEDA_REDIS = jsonencode({ address = "${var.redis_endpoint}:${var.redis_port}", password = random_password.redis_auth.result })
  }
  # for_each takes the names only: the values are sensitive, and Terraform refuses those as keys.
  generated_names = toset(["DATABASE_URL", "DATABASE_URLS", "REDIS_URL", "APP_SECRET", "METRICS_TOKEN", "KEDA_REDIS"])
  provided        = toset(["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "SMTP_URL"])
}

resource "aws_secretsmanager_secret" "generated" {
  for_each                = local.generated_names
  name                    = "${var.name}/${each.key}"
  kms_key_id              = aws_kms_key.this.arn
  recovery_window_in_days = var.recovery_window_days
  tags                    = var.tags
}

resource "aws_secretsmanager_secret_version" "generated" {
  for_each      = local.generated_names
  secret_id     = aws_secretsmanager_secret.generated[each.key].id
  secret_string = local.generated[each.key]
}

# One URL per cluster (operators' tools, backups); the platform reads them as DATABASE_URL (the
# control plane's) and DATABASE_URLS (the others) above.
resource "aws_secretsmanager_secret" "database_url" {
  for_each                = var.database_endpoints
  name                    = "${var.name}/database-urls/${each.key}"
  kms_key_id              = aws_kms_key.this.arn
  recovery_window_in_days = var.recovery_window_days
  tags                    = var.tags
}

resource "aws_secretsmanager_secret_version" "database_url" {
  for_each      = var.database_endpoints
  secret_id     = aws_secretsmanager_secret.database_url[each.key].id
  secret_string = local.database_urls[each.key]
}

resource "aws_secretsmanager_secret" "provided" {
  for_each                = local.provided
  name                    = "${var.name}/${each.key}"
  kms_key_id              = aws_kms_key.this.arn
  recovery_window_in_days = var.recovery_window_days
  tags                    = var.tags
}
