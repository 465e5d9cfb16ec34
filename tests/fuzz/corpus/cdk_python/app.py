import aws_cdk as cdk
from aws_cdk import aws_iam as iam
from aws_cdk import aws_sagemaker as sagemaker


class MlStack(cdk.Stack):
    def __init__(self, scope, construct_id, instance_type="ml.p3.2xlarge", **kwargs):
        super().__init__(scope, construct_id, **kwargs)
        role = iam.Role(self, "Role", assumed_by=iam.ServicePrincipal("sagemaker.amazonaws.com"))
        role.add_managed_policy(iam.ManagedPolicy.from_aws_managed_policy_name("AmazonSageMakerFullAccess"))
        sagemaker.CfnNotebookInstance(self, "Explore", instance_type=instance_type, role_arn=role.role_arn)


app = cdk.App()
MlStack(app, "MlStack", instance_type=app.node.try_get_context("type") or "ml.g5.xlarge")
app.synth()
