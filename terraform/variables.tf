variable "name" {
  description = "Prefix of every resource and secret name, e.g. cms-prod."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,30}$", var.name))
    error_message = "name: lower-case letters, digits and dashes, 2-31 characters, starting with a letter."
  }
}

variable "region" {
  description = "AWS region of everything (CloudFront and its certificate aside)."
  type        = string
}

variable "base_domain" {
  description = "BASE_DOMAIN: the dashboard and management API at it, every project at {slug}.BASE_DOMAIN."
  type        = string
}

variable "hosted_zone_id" {
  description = "Route 53 public hosted zone of base_domain (already delegated to Route 53)."
  type        = string
}

variable "vpc_cidr" {
  description = "IPv4 range of the VPC (a /16)."
  type        = string
  default     = "10.0.0.0/16"
}

variable "availability_zones" {
  description = "Two to four zones of the region to spread subnets, nodes, the database and the cache over."
  type        = list(string)
}

variable "single_nat_gateway" {
  description = "One NAT gateway instead of one per zone (cheaper; a zone's loss then cuts the pods' internet egress)."
  type        = bool
  default     = false
}

variable "database_clusters" {
  description = "Postgres clusters (RDS instances) by key (a key is the cluster's name in the platform: ^[a-z][a-z0-9_-]{0,30}$). The control plane's holds projects too; new projects are placed on the one with the fewest (docs/operations.md § More than one Postgres cluster)."
  type = map(object({
    instance_class        = string
    allocated_storage     = number
    max_allocated_storage = number
    max_connections       = number
  }))
}

variable "control_plane_cluster" {
  description = "Key in database_clusters of the cluster holding the control schema (its URL is DATABASE_URL)."
  type        = string
  default     = "main"
}

variable "database_name" {
  description = "Database name on every cluster."
  type        = string
  default     = "cms"
}

variable "database_username" {
  description = "Master user the platform connects as."
  type        = string
  default     = "cms"
}

variable "db_backup_retention_days" {
  description = "Days of automated RDS backups (point-in-time recovery window), 1-35."
  type        = number
  default     = 14
}

variable "redis_node_type" {
  description = "ElastiCache node type."
  type        = string
  default     = "cache.r7g.large"
}

variable "redis_num_cache_clusters" {
  description = "Redis nodes (primary + replicas, 2 or more)."
  type        = number
  default     = 2
}

variable "redis_snapshot_retention_days" {
  description = "Days of daily Redis snapshots."
  type        = number
  default     = 3
}

variable "media_bucket_name" {
  description = "Globally unique name of the media bucket."
  type        = string
}

variable "media_noncurrent_version_days" {
  description = "Days previous versions of media objects are kept."
  type        = number
  default     = 30
}

variable "cloudfront_price_class" {
  description = "CloudFront price class of the media CDN (and of the content API's, api_cdn_enabled)."
  type        = string
  default     = "PriceClass_100"
}

variable "kubernetes_version" {
  description = "EKS Kubernetes version (1.30 or newer: the gateway's preStop uses the sleep action)."
  type        = string
  default     = "1.31"
}

variable "eks_public_access_cidrs" {
  description = "Ranges allowed to reach the Kubernetes API's public endpoint; empty: private endpoint only."
  type        = list(string)
  default     = []
}

variable "node_instance_types" {
  description = "Instance types of the EKS managed node group (x86_64)."
  type        = list(string)
  default     = ["m7i.large"]
}

variable "node_min_size" {
  description = "Fewest EKS nodes."
  type        = number
  default     = 3
}

variable "node_max_size" {
  description = "Most EKS nodes."
  type        = number
  default     = 12
}

variable "node_desired_size" {
  description = "EKS nodes at creation."
  type        = number
  default     = 3
}

variable "k8s_namespace" {
  description = "Namespace of the platform in the cluster (the prod overlay's namespace); the IAM roles trust its service accounts only."
  type        = string
  default     = "cms"
}

variable "create_dns_records" {
  description = "Point BASE_DOMAIN and *.BASE_DOMAIN at the ALB: set true on the second apply, once the Ingress has created it."
  type        = bool
  default     = false
}

variable "ingress_load_balancer_name" {
  description = "Name given to the ALB by the prod Ingress (alb.ingress.kubernetes.io/load-balancer-name)."
  type        = string
  default     = "cms-prod"
}

variable "api_cdn_enabled" {
  description = "Put CloudFront in front of the ALB for the project hosts *.BASE_DOMAIN (public published reads kept at the edge for their s-maxage; modules/cdn). Needs create_dns_records (the ALB must exist)."
  type        = bool
  default     = false
}

variable "secrets_recovery_window_days" {
  description = "Days a deleted secret stays restorable (0 or 7-30)."
  type        = number
  default     = 30
}

variable "tags" {
  description = "Tags on every resource (provider default_tags)."
  type        = map(string)
  default     = { Application = "cms" }
}
