# Least privilege, one role per service account (IRSA: only that namespace's account may assume
# it). The platform writes media at {projectId}/… in a bucket of its own, so "its prefix" is the
# bucket's object space; nothing else in AWS is reachable by the pods.
#   gateway: read, write and delete objects (uploads, replaces, deletes), abort its own failed
#            multipart uploads, list keys (deleting a project lists its {projectId}/ prefix).
#   worker:  read originals and write image formats.
#   external-secrets: read the platform's secrets in Secrets Manager, nothing else.
locals {
  issuer = replace(var.oidc_issuer, "https://", "")
}

data "aws_iam_policy_document" "assume" {
  for_each = toset(["cms-gateway", "cms-worker", "cms-external-secrets"])

  statement {
    actions = ["sts:AssumeRoleWithWebIdentity"]
    principals {
      type        = "Federated"
      identifiers = [var.oidc_provider_arn]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.issuer}:sub"
      values   = ["system:serviceaccount:${var.namespace}:${each.key}"]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.issuer}:aud"
      values   = ["sts.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "gateway" {
  name               = "${var.name}-gateway"
  assume_role_policy = data.aws_iam_policy_document.assume["cms-gateway"].json
  tags               = var.tags
}

resource "aws_iam_role" "worker" {
  name               = "${var.name}-worker"
  assume_role_policy = data.aws_iam_policy_document.assume["cms-worker"].json
  tags               = var.tags
}

resource "aws_iam_role" "external_secrets" {
  name               = "${var.name}-external-secrets"
  assume_role_policy = data.aws_iam_policy_document.assume["cms-external-secrets"].json
  tags               = var.tags
}

data "aws_iam_policy_document" "gateway_media" {
  statement {
    sid = "MediaObjects"
    actions = [
      "s3:GetObject",
      "s3:PutObject",
      "s3:DeleteObject",
      "s3:AbortMultipartUpload",
    ]
    resources = ["${var.media_bucket_arn}/*"]
  }

  statement {
    sid       = "MediaKeys"
    actions   = ["s3:ListBucket"]
    resources = [var.media_bucket_arn]
  }
}

data "aws_iam_policy_document" "worker_media" {
  statement {
    sid = "MediaObjects"
    actions = [
      "s3:GetObject",
      "s3:PutObject",
      "s3:AbortMultipartUpload",
    ]
    resources = ["${var.media_bucket_arn}/*"]
  }
}

data "aws_iam_policy_document" "external_secrets" {
  statement {
    sid = "PlatformSecrets"
    actions = [
      "secretsmanager:GetSecretValue",
      "secretsmanager:DescribeSecret",
    ]
    resources = var.secret_arns
  }

  statement {
    sid       = "DecryptThroughSecretsManager"
    actions   = ["kms:Decrypt"]
    resources = [var.secrets_kms_key_arn]
    condition {
      test     = "StringEquals"
      variable = "kms:ViaService"
      values   = ["secretsmanager.${data.aws_region.current.name}.amazonaws.com"]
    }
  }
}

data "aws_region" "current" {}

resource "aws_iam_role_policy" "gateway_media" {
  name   = "media"
  role   = aws_iam_role.gateway.id
  policy = data.aws_iam_policy_document.gateway_media.json
}

resource "aws_iam_role_policy" "worker_media" {
  name   = "media"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.worker_media.json
}

resource "aws_iam_role_policy" "external_secrets" {
  name   = "secrets"
  role   = aws_iam_role.external_secrets.id
  policy = data.aws_iam_policy_document.external_secrets.json
}
