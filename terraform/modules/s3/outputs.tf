output "bucket_name" {
  description = "The media bucket (S3_BUCKET)."
  value       = aws_s3_bucket.media.bucket
}

output "bucket_arn" {
  description = "ARN of the media bucket."
  value       = aws_s3_bucket.media.arn
}

output "cdn_url" {
  description = "Base URL of every media file (MEDIA_PUBLIC_URL)."
  value       = "https://${aws_cloudfront_distribution.media.domain_name}"
}
