locals {
  prefix      = "ml-${var.team}"
  image       = "683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-scikit-learn:1.2-1-cpu-py3"
  common_tags = { Team = var.team }
}

resource "aws_sagemaker_notebook_instance_lifecycle_configuration" "autostop" {
  name     = "${local.prefix}-autostop"
  on_start = filebase64("${path.module}/scripts/on-start.sh")
}

resource "aws_sagemaker_notebook_instance" "explore" {
  name                  = "${local.prefix}-explore"
  instance_type         = var.notebook_type
  role_arn              = "arn:aws:iam::111122223333:role/sagemaker"
  lifecycle_config_name = var.enable_autostop ? aws_sagemaker_notebook_instance_lifecycle_configuration.autostop.name : null
}

resource "aws_sagemaker_model" "churn" {
  name               = "${local.prefix}-churn"
  execution_role_arn = "arn:aws:iam::111122223333:role/sagemaker"
  primary_container {
    image = local.image
  }
}

resource "aws_sagemaker_endpoint_configuration" "churn" {
  production_variants {
    variant_name           = "main"
    model_name             = aws_sagemaker_model.churn.name
    instance_type          = var.endpoint_type
    initial_instance_count = 2
  }
  dynamic "production_variants" {
    for_each = []
    content {}
  }
}

resource "aws_sagemaker_endpoint" "churn" {
  endpoint_config_name = aws_sagemaker_endpoint_configuration.churn.name
}

resource "aws_appautoscaling_target" "churn" {
  service_namespace  = "sagemaker"
  resource_id        = "endpoint/${aws_sagemaker_endpoint.churn.name}/variant/main"
  scalable_dimension = "sagemaker:variant:DesiredInstanceCount"
  min_capacity       = 1
  max_capacity       = 4
}

resource "aws_sagemaker_notebook_instance" "disabled" {
  count         = 0
  name          = "never"
  instance_type = "ml.p3.2xlarge"
  role_arn      = "arn:aws:iam::111122223333:role/sagemaker"
}

module "research" {
  source        = "./modules/notebook"
  instance_type = "ml.g5.xlarge"
}
