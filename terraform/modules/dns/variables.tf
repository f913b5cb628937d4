variable "base_domain" {
  description = "BASE_DOMAIN: the dashboard and management API answer on it, project {slug} on {slug}.BASE_DOMAIN."
  type        = string
}

variable "hosted_zone_id" {
  description = "Route 53 public hosted zone that holds base_domain (created outside this configuration)."
  type        = string
}

variable "create_records" {
  description = "Create the base and wildcard alias records; true once the Ingress has created the ALB (second apply)."
  type        = bool
}

variable "load_balancer_name" {
  description = "Name of the ALB the AWS Load Balancer Controller creates for the Ingress (alb.ingress.kubernetes.io/load-balancer-name)."
  type        = string
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}

variable "wildcard_alias" {
  description = "Alias target of *.BASE_DOMAIN when the content API's CloudFront is in front (cdn module); null: the ALB."
  type = object({
    name    = string
    zone_id = string
  })
  default = null
}
