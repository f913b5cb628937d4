variable "bucket_name" {
  description = "Name of the media bucket (globally unique). The platform stores objects at {projectId}/… in it."
  type        = string
}

variable "noncurrent_version_days" {
  description = "Days a replaced or deleted object's previous version is kept (versioning protects against mistaken deletes)."
  type        = number
}

variable "cloudfront_price_class" {
  description = "CloudFront price class of the media CDN (PriceClass_100, PriceClass_200 or PriceClass_All)."
  type        = string
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
