# Inference and Studio for the analytics team.
variable "endpoint_instance_type" {
  type    = string
  default = "ml.p3.2xlarge"
}

resource "aws_sagemaker_endpoint_configuration" "ranker" {
  name = "ranker"

  production_variants {
    variant_name           = "AllTraffic"
    model_name             = "ranker"
    instance_type          = var.endpoint_instance_type
    initial_instance_count = 1
  }
}

resource "aws_sagemaker_endpoint" "ranker" {
  name                 = "ranker"
  endpoint_config_name = aws_sagemaker_endpoint_configuration.ranker.name
}

# Staging copy of the ranker: the instance type was pasted from a notebook.
resource "aws_sagemaker_endpoint_configuration" "ranker_staging" {
  name = "ranker-staging"

  production_variants {
    variant_name           = "AllTraffic"
    model_name             = "ranker"
    instance_type          = "ml.t3.medium"
    initial_instance_count = 1
  }
}

resource "aws_appautoscaling_target" "ranker" {
  service_namespace  = "sagemaker"
  resource_id        = "endpoint/${aws_sagemaker_endpoint.ranker.name}/variant/AllTraffic"
  scalable_dimension = "sagemaker:variant:DesiredInstanceCount"
  min_capacity       = 1
  max_capacity       = 1
}

resource "aws_sagemaker_domain" "analytics" {
  domain_name = "analytics"
  auth_mode   = "IAM"
  vpc_id      = "vpc-0123456789abcdef0"
  subnet_ids  = ["subnet-0123456789abcdef0"]

  default_user_settings {
    execution_role = "arn:aws:iam::111122223333:role/studio-execution"

    jupyter_lab_app_settings {
      default_resource_spec {
        instance_type = "ml.t3.medium"
      }
    }
  }
}
