variable "name" {
  description = "Prefix of the roles' names."
  type        = string
}

variable "oidc_provider_arn" {
  description = "The EKS cluster's IAM OIDC provider (IRSA)."
  type        = string
}

variable "oidc_issuer" {
  description = "The EKS cluster's OIDC issuer URL."
  type        = string
}

variable "namespace" {
  description = "Kubernetes namespace of the platform (the prod overlay's `namespace`)."
  type        = string
}

variable "media_bucket_arn" {
  description = "ARN of the media bucket."
  type        = string
}

variable "secret_arns" {
  description = "Secrets Manager secrets External Secrets may read for the platform's namespace."
  type        = list(string)
}

variable "secrets_kms_key_arn" {
  description = "KMS key of those secrets (decrypting through Secrets Manager only)."
  type        = string
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
