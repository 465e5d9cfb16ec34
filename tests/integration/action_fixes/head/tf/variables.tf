variable "notebook_type" {
  default = "ml.m4.xlarge"
}
