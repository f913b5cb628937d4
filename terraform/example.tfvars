# terraform apply -var-file=example.tfvars (copy it and change the names first). No secret
# belongs here: credentials are generated into Secrets Manager, Stripe and SMTP values are put
# there by hand (terraform/README.md).
name               = "cms-prod"
region             = "eu-west-1"
base_domain        = "cms.example.com"
hosted_zone_id     = "Z0123456789EXAMPLE"
availability_zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]

database_clusters = {
  main = {
    instance_class        = "db.r6g.xlarge"
    allocated_storage     = 200
    max_allocated_storage = 1000
    # 12 gateways × DB_POOL_SIZE 20 + 8 workers × 5 + migrations 2 + cancels + 25 % headroom.
    max_connections = 400
  }
}

redis_node_type          = "cache.r7g.large"
redis_num_cache_clusters = 2

media_bucket_name = "cms-prod-media-example"

eks_public_access_cidrs = ["203.0.113.0/24"]
node_instance_types     = ["m7i.large"]
node_min_size           = 3
node_max_size           = 12
node_desired_size       = 3

k8s_namespace              = "cms"
ingress_load_balancer_name = "cms-prod"
create_dns_records         = false
# CloudFront in front of the project hosts: true with create_dns_records = true (third apply, or
# with the second), docs/operations.md § CDN in front of the content API.
api_cdn_enabled = false

tags = {
  Application = "cms"
  Environment = "prod"
}
