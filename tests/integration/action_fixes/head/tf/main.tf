resource "aws_sagemaker_notebook_instance" "lab" {
  name          = "lab"
  instance_type = "ml.m4.xlarge"
  role_arn      = "arn:aws:iam::111122223333:role/sagemaker"
}

resource "aws_sagemaker_notebook_instance" "gpu" {
  name          = "gpu"
  instance_type = var.notebook_type
  role_arn      = "arn:aws:iam::111122223333:role/sagemaker"
}
