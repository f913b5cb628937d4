variable "name" {
  description = "Prefix of the resource names (the root's name)."
  type        = string
}

variable "base_domain" {
  description = "BASE_DOMAIN: the distribution answers for *.BASE_DOMAIN (project hosts)."
  type        = string
}

variable "load_balancer_name" {
  description = "Name of the ALB the AWS Load Balancer Controller created for the Ingress (the origin)."
  type        = string
}

variable "validation_record_fqdns" {
  description = "Route 53 records validating *.BASE_DOMAIN, made by the dns module (the same in every region)."
  type        = list(string)
}

variable "price_class" {
  description = "CloudFront price class (PriceClass_100, PriceClass_200 or PriceClass_All)."
  type        = string
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
