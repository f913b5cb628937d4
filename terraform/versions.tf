terraform {
  required_version = ">= 1.6.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.80"
    }
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
    tls = {
      source  = "hashicorp/tls"
      version = "~> 4.0"
    }
  }

  # State holds generated credentials: keep it in an encrypted, versioned bucket with locking.
  # terraform init -backend-config="bucket=…" -backend-config="key=cms/prod.tfstate" \
  #   -backend-config="region=…" -backend-config="use_lockfile=true" -backend-config="encrypt=true"
  backend "s3" {}
}

provider "aws" {
  region = var.region

  default_tags {
    tags = var.tags
  }
}

# CloudFront reads its certificates from us-east-1 only (the content API's CDN, modules/cdn).
provider "aws" {
  alias  = "us_east_1"
  region = "us-east-1"

  default_tags {
    tags = var.tags
  }
}
