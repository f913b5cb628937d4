output "address" {
  description = "Host name of the instance (private)."
  value       = aws_db_instance.this.address
}

output "port" {
  description = "Port of the instance."
  value       = aws_db_instance.this.port
}

output "database_name" {
  description = "Database the platform uses."
  value       = aws_db_instance.this.db_name
}

output "security_group_id" {
  description = "Security group of the instance."
  value       = aws_security_group.this.id
}
