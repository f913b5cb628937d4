# PostgreSQL 15 for the control plane and the project schemas: Multi-AZ, KMS-encrypted, private,
# backed up, protected from deletion.
data "aws_secretsmanager_secret_version" "master_password" {
  secret_id = var.master_password_secret_arn
}

resource "aws_kms_key" "this" {
  description             = "${var.name}: RDS storage, snapshots and Performance Insights"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  tags                    = var.tags
}

resource "aws_kms_alias" "this" {
  name          = "alias/${var.name}-rds"
  target_key_id = aws_kms_key.this.key_id
}

resource "aws_db_subnet_group" "this" {
  name       = var.name
  subnet_ids = var.subnet_ids
  tags       = var.tags
}

resource "aws_security_group" "this" {
  name        = "${var.name}-postgres"
  description = "Postgres from the platform's pods only"
  vpc_id      = var.vpc_id
  tags        = var.tags
}

resource "aws_vpc_security_group_ingress_rule" "postgres" {
  for_each                     = toset(var.allowed_security_group_ids)
  security_group_id            = aws_security_group.this.id
  referenced_security_group_id = each.value
  ip_protocol                  = "tcp"
  from_port                    = 5432
  to_port                      = 5432
  description                  = "Postgres from ${each.value}"
}

# The platform's settings. Not set here on purpose: statement_timeout — the platform sets it per
# session (per plan: free 5 s, pro 15 s, enterprise 30 s; schema migrations 5 min), a global one
# would cut migrations and be overridden anyway.
resource "aws_db_parameter_group" "this" {
  name        = var.name
  family      = "postgres15"
  description = "${var.name}: content platform settings"
  tags        = var.tags

  parameter {
    name         = "max_connections"
    value        = tostring(var.max_connections)
    apply_method = "pending-reboot"
  }

  # Log statements slower than 1 s (the platform's p99 alert is at 1 s).
  parameter {
    name  = "log_min_duration_statement"
    value = "1000"
  }

  parameter {
    name  = "log_lock_waits"
    value = "1"
  }

  # A transaction left open by a crashed client must not hold locks for long (the platform's own
  # transactions last milliseconds; migrations run statements back to back).
  parameter {
    name  = "idle_in_transaction_session_timeout"
    value = "60000"
  }

  # A project's share of the pool should be a share of CPU: few parallel workers per statement.
  parameter {
    name  = "max_parallel_workers_per_gather"
    value = "2"
  }

  # TLS only (DATABASE_URL uses sslmode=require; the RDS CA bundle is mounted for verification).
  parameter {
    name  = "rds.force_ssl"
    value = "1"
  }

  parameter {
    name         = "shared_preload_libraries"
    value        = "pg_stat_statements"
    apply_method = "pending-reboot"
  }

  parameter {
    name  = "track_io_timing"
    value = "1"
  }
}

resource "aws_db_instance" "this" {
  identifier     = var.name
  engine         = "postgres"
  engine_version = "15"
  instance_class = var.instance_class

  db_name  = var.database_name
  username = var.master_username
  password = data.aws_secretsmanager_secret_version.master_password.secret_string
  port     = 5432

  allocated_storage     = var.allocated_storage
  max_allocated_storage = var.max_allocated_storage
  storage_type          = "gp3"
  storage_encrypted     = true
  kms_key_id            = aws_kms_key.this.arn

  multi_az               = true
  db_subnet_group_name   = aws_db_subnet_group.this.name
  vpc_security_group_ids = [aws_security_group.this.id]
  publicly_accessible    = false
  parameter_group_name   = aws_db_parameter_group.this.name
  ca_cert_identifier     = "rds-ca-rsa2048-g1"

  backup_retention_period   = var.backup_retention_days
  backup_window             = "02:00-03:00"
  maintenance_window        = "sun:03:30-sun:04:30"
  copy_tags_to_snapshot     = true
  deletion_protection       = true
  skip_final_snapshot       = false
  final_snapshot_identifier = "${var.name}-final"
  delete_automated_backups  = false

  auto_minor_version_upgrade            = true
  allow_major_version_upgrade           = false
  apply_immediately                     = false
  performance_insights_enabled          = true
  performance_insights_kms_key_id       = aws_kms_key.this.arn
  performance_insights_retention_period = 7
  enabled_cloudwatch_logs_exports       = ["postgresql", "upgrade"]

  tags = var.tags

  lifecycle {
    # Minor versions move with auto_minor_version_upgrade; do not fight them.
    ignore_changes = [engine_version]
  }
}
