variable "name" {
  description = "Prefix of every resource name (e.g. cms-prod)."
  type        = string
}

variable "cidr" {
  description = "The VPC's IPv4 range; a /16 leaves room for /19 private subnets (pods take VPC addresses with the VPC CNI)."
  type        = string
}

variable "availability_zones" {
  description = "Zones to spread subnets over (at least two: RDS Multi-AZ, ElastiCache failover and the ALB need them)."
  type        = list(string)

  validation {
    condition     = length(var.availability_zones) >= 2 && length(var.availability_zones) <= 4
    error_message = "Two to four availability zones (public /21s share the VPC's first /19)."
  }
}

variable "single_nat_gateway" {
  description = "One NAT gateway for all zones (cheaper, a zone's loss cuts egress) instead of one per zone."
  type        = bool
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
}
