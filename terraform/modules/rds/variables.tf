variable "name" {
  description = "Identifier of the database instance and prefix of its companions (parameter group, subnet group, key)."
  type        = string
}

variable "vpc_id" {
  description = "VPC of the instance."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets (two zones at least) for the subnet group; the instance is never public."
  type        = list(string)
}

variable "allowed_security_group_ids" {
  description = "Security groups allowed to connect on 5432 (the EKS cluster security group: nodes and pods)."
  type        = list(string)
}

variable "instance_class" {
  description = "Instance class, e.g. db.r6g.large."
  type        = string
}

variable "allocated_storage" {
  description = "Initial gp3 storage in GiB."
  type        = number
}

variable "max_allocated_storage" {
  description = "Storage autoscaling ceiling in GiB."
  type        = number
}

variable "max_connections" {
  description = "Postgres max_connections: gateways × DB_POOL_SIZE + workers × their pool + migrations + cancel connections + headroom (docs/operations.md § Sizing)."
  type        = number
}

variable "backup_retention_days" {
  description = "Days of automated backups and point-in-time recovery (1-35)."
  type        = number

  validation {
    condition     = var.backup_retention_days >= 1 && var.backup_retention_days <= 35
    error_message = "backup_retention_days must be between 1 and 35."
  }
}

variable "database_name" {
  description = "Name of the database the platform uses."
  type        = string
}

variable "master_username" {
  description = "Master user name (the platform connects as it; it creates one schema per project)."
  type        = string
}

variable "master_password_secret_arn" {
  description = "Secrets Manager secret holding the master password (written by the secrets module, never in code)."
  type        = string
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
