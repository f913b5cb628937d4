# The content API's CDN (opt-in, api_cdn_enabled): CloudFront in front of the ALB for the project
# hosts {slug}.BASE_DOMAIN. It keeps what the gateways mark public (the public role's published
# reads: `Cache-Control: public, s-maxage=N, stale-while-revalidate=300`) and passes everything
# else through: answers without s-maxage are not kept (default TTL 0), `private`/`no-store`
# answers (tokens, JWTs, drafts) never, writes go straight to the origin. The apex BASE_DOMAIN
# (dashboard, management API, /p/{slug}/api) stays on the ALB.
#
# CloudFront has no surrogate-key purge: a change reaches its edges when their copy's s-maxage
# ends (docs/operations.md § CDN in front of the content API). A CDN that purges by key (Fastly,
# CDN_PURGE_FORMAT=fastly) is what makes edge copies follow changes at once.
terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.us_east_1]
    }
  }
}

# The ALB the AWS Load Balancer Controller made for the Ingress (it must exist: second apply).
data "aws_lb" "ingress" {
  name = var.load_balancer_name
}

# CloudFront takes certificates from us-east-1 only. ACM's DNS validation record of a name is the
# same in every region and for every certificate of the account, so the records the dns module
# made for the ALB's certificate validate this one too (checked below before waiting on them).
resource "aws_acm_certificate" "edge" {
  provider          = aws.us_east_1
  domain_name       = "*.${var.base_domain}"
  validation_method = "DNS"
  key_algorithm     = "RSA_2048"
  tags              = var.tags

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_acm_certificate_validation" "edge" {
  provider                = aws.us_east_1
  certificate_arn         = aws_acm_certificate.edge.arn
  validation_record_fqdns = var.validation_record_fqdns

  lifecycle {
    precondition {
      condition = alltrue([
        for dvo in aws_acm_certificate.edge.domain_validation_options :
        contains([for f in var.validation_record_fqdns : trimsuffix(lower(f), ".")], trimsuffix(lower(dvo.resource_record_name), "."))
      ])
      error_message = "The us-east-1 certificate asks for a validation record the dns module did not create."
    }
  }
}

# Honour the origin's Cache-Control: nothing is kept without s-maxage/max-age (default 0), and
# `private`, `no-cache`, `no-store` are obeyed (min 0). The key (each part also reaches the origin):
# - Host: one project's answer is never another's (the gateways route by Host, so it must reach
#   them too);
# - the path and the whole query string (filters, sort, populate, locale, status, pagination);
# - Authorization: a request with a credential is its own entry and is forwarded (CloudFront only
#   forwards Authorization on GET/HEAD when it is part of the key); its answers are
#   `private, no-cache` and are not kept anyway;
# - every cookie, for the same reason (no content answer depends on one; a request with cookies
#   never gets an entry made for a request without);
# - Origin: CORS answers reflect the allowed origin;
# - Strapi-Response-Format: the v4 format is another answer (the gateways' `Vary`, which
#   CloudFront does not read apart from Accept-Encoding).
resource "aws_cloudfront_cache_policy" "api" {
  name        = "${var.name}-content-api"
  comment     = "Content API: origin Cache-Control (s-maxage) only; key = host, path, query, credential, cookies, origin"
  min_ttl     = 0
  default_ttl = 0
  max_ttl     = 86400

  parameters_in_cache_key_and_forwarded_to_origin {
    enable_accept_encoding_gzip   = true
    enable_accept_encoding_brotli = true

    headers_config {
      header_behavior = "whitelist"
      headers {
        items = ["Host", "Authorization", "Origin", "Strapi-Response-Format"]
      }
    }

    cookies_config {
      cookie_behavior = "all"
    }

    query_strings_config {
      query_string_behavior = "all"
    }
  }
}

# Every other viewer header reaches the origin too (Content-Type and the rest of a write, Accept,
# the X-Forwarded-For CloudFront adds), as do all cookies and the query string.
data "aws_cloudfront_origin_request_policy" "all_viewer" {
  name = "Managed-AllViewer"
}

resource "aws_cloudfront_distribution" "api" {
  enabled      = true
  comment      = "${var.name} content API (*.${var.base_domain})"
  aliases      = ["*.${var.base_domain}"]
  price_class  = var.price_class
  http_version = "http2and3"
  # The records are A aliases, as the ALB's.
  is_ipv6_enabled = false

  origin {
    origin_id   = "alb"
    domain_name = data.aws_lb.ingress.dns_name

    # TLS to the ALB: with the viewer's Host forwarded, CloudFront checks the ALB's certificate
    # (the dns module's *.BASE_DOMAIN) against that host.
    custom_origin_config {
      http_port                = 80
      https_port               = 443
      origin_protocol_policy   = "https-only"
      origin_ssl_protocols     = ["TLSv1.2"]
      origin_read_timeout      = 60 # the live stream pings every 15 s
      origin_keepalive_timeout = 30 # under the ALB's idle timeout (60 s)
    }
  }

  default_cache_behavior {
    target_origin_id         = "alb"
    viewer_protocol_policy   = "redirect-to-https"
    allowed_methods          = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"]
    cached_methods           = ["GET", "HEAD"]
    compress                 = true
    cache_policy_id          = aws_cloudfront_cache_policy.api.id
    origin_request_policy_id = data.aws_cloudfront_origin_request_policy.all_viewer.id
  }

  # CloudFront keeps error answers without Cache-Control for 10 s by default: a 404 for a
  # document created a moment later, or a 503, would outlive its cause.
  dynamic "custom_error_response" {
    for_each = [400, 403, 404, 405, 414, 416, 500, 501, 502, 503, 504]
    content {
      error_code            = custom_error_response.value
      error_caching_min_ttl = 0
    }
  }

  restrictions {
    geo_restriction {
      restriction_type = "none"
    }
  }

  viewer_certificate {
    acm_certificate_arn      = aws_acm_certificate_validation.edge.certificate_arn
    ssl_support_method       = "sni-only"
    minimum_protocol_version = "TLSv1.2_2021"
  }

  tags = var.tags
}
