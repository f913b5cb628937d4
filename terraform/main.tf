# The content platform on AWS: network, Postgres, Redis, media bucket + CDN, EKS, certificate and
# DNS, IAM roles for the pods, secrets, and optionally a CDN in front of the content API. The Kubernetes side is infra/k8s/overlays/prod, filled
# from this configuration's outputs (see terraform/README.md).
module "vpc" {
  source             = "./modules/vpc"
  name               = var.name
  cidr               = var.vpc_cidr
  availability_zones = var.availability_zones
  single_nat_gateway = var.single_nat_gateway
  tags               = var.tags
}

module "eks" {
  source              = "./modules/eks"
  name                = var.name
  kubernetes_version  = var.kubernetes_version
  subnet_ids          = module.vpc.private_subnet_ids
  public_access_cidrs = var.eks_public_access_cidrs
  node_instance_types = var.node_instance_types
  node_min_size       = var.node_min_size
  node_max_size       = var.node_max_size
  node_desired_size   = var.node_desired_size
  tags                = var.tags
}

# Generated credentials are written first; the database and cache read theirs back from Secrets
# Manager, and the connection URLs are written once their endpoints exist.
module "secrets" {
  source                = "./modules/secrets"
  name                  = var.name
  database_clusters     = toset(keys(var.database_clusters))
  control_plane_cluster = var.control_plane_cluster
  database_endpoints = {
    for key, db in module.rds : key => {
      address       = db.address
      port          = db.port
      database_name = db.database_name
    }
  }
  database_username    = var.database_username
  redis_endpoint       = module.redis.primary_endpoint
  redis_port           = module.redis.port
  recovery_window_days = var.secrets_recovery_window_days
  tags                 = var.tags
}

module "rds" {
  source   = "./modules/rds"
  for_each = var.database_clusters

  name                       = "${var.name}-${each.key}"
  vpc_id                     = module.vpc.vpc_id
  subnet_ids                 = module.vpc.private_subnet_ids
  allowed_security_group_ids = [module.eks.cluster_security_group_id]
  instance_class             = each.value.instance_class
  allocated_storage          = each.value.allocated_storage
  max_allocated_storage      = each.value.max_allocated_storage
  max_connections            = each.value.max_connections
  backup_retention_days      = var.db_backup_retention_days
  database_name              = var.database_name
  master_username            = var.database_username
  master_password_secret_arn = module.secrets.database_password_secret_arns[each.key]
  tags                       = var.tags
}

module "redis" {
  source                     = "./modules/redis"
  name                       = var.name
  vpc_id                     = module.vpc.vpc_id
  subnet_ids                 = module.vpc.private_subnet_ids
  allowed_security_group_ids = [module.eks.cluster_security_group_id]
  node_type                  = var.redis_node_type
  num_cache_clusters         = var.redis_num_cache_clusters
  auth_token_secret_arn      = module.secrets.redis_auth_token_secret_arn
  snapshot_retention_days    = var.redis_snapshot_retention_days
  tags                       = var.tags
}

module "s3" {
  source                  = "./modules/s3"
  bucket_name             = var.media_bucket_name
  noncurrent_version_days = var.media_noncurrent_version_days
  cloudfront_price_class  = var.cloudfront_price_class
  tags                    = var.tags
}

module "dns" {
  source             = "./modules/dns"
  base_domain        = var.base_domain
  hosted_zone_id     = var.hosted_zone_id
  create_records     = var.create_dns_records
  load_balancer_name = var.ingress_load_balancer_name
  wildcard_alias = var.api_cdn_enabled ? {
    name    = module.cdn[0].domain_name
    zone_id = module.cdn[0].hosted_zone_id
  } : null
  tags = var.tags
}

# CloudFront in front of the ALB for the project hosts (opt-in; needs the ALB: set it with
# create_dns_records). docs/operations.md § CDN in front of the content API.
module "cdn" {
  source = "./modules/cdn"
  count  = var.api_cdn_enabled ? 1 : 0
  providers = {
    aws           = aws
    aws.us_east_1 = aws.us_east_1
  }

  name                    = var.name
  base_domain             = var.base_domain
  load_balancer_name      = var.ingress_load_balancer_name
  validation_record_fqdns = module.dns.validation_record_fqdns
  price_class             = var.cloudfront_price_class
  tags                    = var.tags
}

check "api_cdn_needs_the_alb" {
  assert {
    condition     = !var.api_cdn_enabled || var.create_dns_records
    error_message = "api_cdn_enabled puts CloudFront in front of the Ingress' ALB: enable it with create_dns_records, once the ALB exists."
  }
}

module "iam" {
  source              = "./modules/iam"
  name                = var.name
  oidc_provider_arn   = module.eks.oidc_provider_arn
  oidc_issuer         = module.eks.oidc_issuer
  namespace           = var.k8s_namespace
  media_bucket_arn    = module.s3.bucket_arn
  secret_arns         = module.secrets.pod_readable_secret_arns
  secrets_kms_key_arn = module.secrets.kms_key_arn
  tags                = var.tags
}
