variable "name" {
  description = "Replication group id and prefix of its companions."
  type        = string
}

variable "vpc_id" {
  description = "VPC of the cache."
  type        = string
}

variable "subnet_ids" {
  description = "Private subnets for the cache subnet group."
  type        = list(string)
}

variable "allowed_security_group_ids" {
  description = "Security groups allowed to connect on 6379 (the EKS cluster security group)."
  type        = list(string)
}

variable "node_type" {
  description = "Cache node type, e.g. cache.r7g.large."
  type        = string
}

variable "num_cache_clusters" {
  description = "Nodes in the replication group: a primary and replicas in other zones (2 or more for automatic failover)."
  type        = number

  validation {
    condition     = var.num_cache_clusters >= 2
    error_message = "Automatic failover needs at least two nodes."
  }
}

variable "auth_token_secret_arn" {
  description = "Secrets Manager secret holding the AUTH token (written by the secrets module, never in code)."
  type        = string
}

variable "snapshot_retention_days" {
  description = "Days of daily snapshots (BullMQ queues and rate-limit counters live here)."
  type        = number
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
