output "certificate_arn" {
  description = "The validated wildcard certificate (the prod Ingress' alb.ingress.kubernetes.io/certificate-arn)."
  value       = aws_acm_certificate_validation.this.certificate_arn
}

output "validation_record_fqdns" {
  description = "The certificate's DNS validation records (they validate the same names in any region: the cdn module's us-east-1 certificate)."
  value       = [for r in aws_route53_record.validation : r.fqdn]
}
