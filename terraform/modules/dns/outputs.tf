output "certificate_arn" {
  description = "The validated wildcard certificate (the prod Ingress' alb.ingress.kubernetes.io/certificate-arn)."
  value       = aws_acm_certificate_validation.this.certificate_arn
}
