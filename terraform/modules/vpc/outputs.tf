output "vpc_id" {
  description = "The VPC's id."
  value       = aws_vpc.this.id
}

output "vpc_cidr" {
  description = "The VPC's IPv4 range."
  value       = aws_vpc.this.cidr_block
}

output "public_subnet_ids" {
  description = "Public subnets (load balancers, NAT)."
  value       = aws_subnet.public[*].id
}

output "public_subnet_cidrs" {
  description = "Public subnets' ranges: where the ALB reaches the gateway pods from (NetworkPolicy)."
  value       = aws_subnet.public[*].cidr_block
}

output "private_subnet_ids" {
  description = "Private subnets (EKS nodes and pods, RDS, ElastiCache)."
  value       = aws_subnet.private[*].id
}

output "private_subnet_cidrs" {
  description = "Private subnets' ranges: where Postgres and Redis live (NetworkPolicy egress)."
  value       = aws_subnet.private[*].cidr_block
}

output "public_supernet_cidr" {
  description = "One range holding every public subnet (the VPC's first /19): the ALB's source range in the gateway's NetworkPolicy."
  value       = cidrsubnet(var.cidr, 3, 0)
}
