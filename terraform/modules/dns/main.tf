# The wildcard certificate (BASE_DOMAIN and *.BASE_DOMAIN, validated by DNS in Route 53) used by
# the ALB, and the alias records sending both names to that ALB. The ALB itself is made by the
# AWS Load Balancer Controller from the Ingress, so the records come in a second apply
# (create_records = true) once it exists. With the content API's CDN (modules/cdn), the wildcard
# record points at CloudFront instead.
resource "aws_acm_certificate" "this" {
  domain_name               = var.base_domain
  subject_alternative_names = ["*.${var.base_domain}"]
  validation_method         = "DNS"
  key_algorithm             = "RSA_2048"
  tags                      = var.tags

  lifecycle {
    create_before_destroy = true
  }
}

# One record per name (keys known at plan). The apex and the wildcard ask for the same record:
# the second write overwrites the first with the same value.
resource "aws_route53_record" "validation" {
  for_each = {
    for dvo in aws_acm_certificate.this.domain_validation_options : dvo.domain_name => {
      name  = dvo.resource_record_name
      type  = dvo.resource_record_type
      value = dvo.resource_record_value
    }
  }
  zone_id         = var.hosted_zone_id
  name            = each.value.name
  type            = each.value.type
  records         = [each.value.value]
  ttl             = 300
  allow_overwrite = true
}

resource "aws_acm_certificate_validation" "this" {
  certificate_arn         = aws_acm_certificate.this.arn
  validation_record_fqdns = [for r in aws_route53_record.validation : r.fqdn]
}

data "aws_lb" "ingress" {
  count = var.create_records ? 1 : 0
  name  = var.load_balancer_name
}

# The apex always points at the ALB; the project hosts at CloudFront when the content API's CDN
# is in front (wildcard_alias, from the cdn module), else at the ALB too. Switching is an in-place
# change of the same record.
locals {
  alb_target = {
    name     = one(data.aws_lb.ingress[*].dns_name)
    zone_id  = one(data.aws_lb.ingress[*].zone_id)
    evaluate = true
  }
  cdn_target = var.wildcard_alias == null ? local.alb_target : {
    name     = var.wildcard_alias.name
    zone_id  = var.wildcard_alias.zone_id
    evaluate = false # not supported for CloudFront aliases
  }
}

resource "aws_route53_record" "base" {
  for_each = var.create_records ? { (var.base_domain) = local.alb_target, "*.${var.base_domain}" = local.cdn_target } : {}
  zone_id  = var.hosted_zone_id
  name     = each.key
  type     = "A"

  alias {
    name                   = each.value.name
    zone_id                = each.value.zone_id
    evaluate_target_health = each.value.evaluate
  }
}
