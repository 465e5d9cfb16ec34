resource "aws_sfn_state_machine" "retrain" {
  name     = "retrain"
  role_arn = "arn:aws:iam::111122223333:role/sfn"
  definition = jsonencode({
    StartAt = "Train"
    States = {
      Train = {
        Type     = "Task"
        Resource = "arn:aws:states:::sagemaker:createTrainingJob.sync"
        End      = true
        Parameters = {
          "TrainingJobName.$" = "$.name"
          ResourceConfig = { InstanceType = "ml.p3.2xlarge", InstanceCount = 1, VolumeSizeInGB = 100 }
          StoppingCondition = { MaxRuntimeInSeconds = 3600 }
        }
      }
    }
  })
}

resource "aws_sagemaker_hyper_parameter_tuning_job" "tune" {
  hyper_parameter_tuning_job_name = "tune"
  hyper_parameter_tuning_job_config {
    strategy = "Bayesian"
  }
  training_job_definition {
    enable_managed_spot_training = true
    algorithm_specification {
      training_image      = "683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-xgboost:1.7-1"
      training_input_mode = "Pipe"
    }
    resource_config {
      instance_type     = "ml.c5.2xlarge"
      instance_count    = 2
      volume_size_in_gb = 50
    }
    stopping_condition {
      max_runtime_in_seconds   = 3600
      max_wait_time_in_seconds = 7200
    }
  }
}
