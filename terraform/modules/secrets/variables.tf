variable "name" {
  description = "Prefix of every secret's name: {name}/DATABASE_URL, {name}/REDIS_URL, …"
  type        = string
}

variable "database_clusters" {
  description = "Keys of the Postgres clusters (one master password and one URL each)."
  type        = set(string)
}

variable "control_plane_cluster" {
  description = "Key of the cluster holding the control schema: its URL is DATABASE_URL."
  type        = string
}

variable "database_endpoints" {
  description = "Each cluster's address, port and database name (rds module outputs)."
  type = map(object({
    address       = string
    port          = number
    database_name = string
  }))
}

variable "database_username" {
  description = "User the platform connects as."
  type        = string
}

variable "redis_endpoint" {
  description = "Host name of the Redis primary."
  type        = string
}

variable "redis_port" {
  description = "Port of Redis."
  type        = number
}

variable "recovery_window_days" {
  description = "Days a deleted secret can still be restored (0 deletes at once; 7-30 otherwise)."
  type        = number
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
