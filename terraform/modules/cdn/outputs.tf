output "domain_name" {
  description = "The distribution's host name (the *.BASE_DOMAIN alias target)."
  value       = aws_cloudfront_distribution.api.domain_name
}

output "hosted_zone_id" {
  description = "Route 53 zone of CloudFront aliases."
  value       = aws_cloudfront_distribution.api.hosted_zone_id
}

output "distribution_id" {
  description = "The distribution's id (aws cloudfront create-invalidation --distribution-id)."
  value       = aws_cloudfront_distribution.api.id
}
