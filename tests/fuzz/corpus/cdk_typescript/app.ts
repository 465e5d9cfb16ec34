import * as cdk from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';

interface Props extends cdk.StackProps { instanceType?: string }

class MlStack extends cdk.Stack {
  constructor(scope: cdk.App, id: string, props: Props = {}) {
    super(scope, id, props);
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    role.addToPolicy(new iam.PolicyStatement({ actions: ['sagemaker:*'], resources: ['*'] }));
    new sagemaker.CfnNotebookInstance(this, 'Explore', {
      instanceType: props.instanceType ?? 'ml.p3.2xlarge',
      roleArn: role.roleArn,
    });
  }
}

const app = new cdk.App();
new MlStack(app, 'MlStack', { instanceType: app.node.tryGetContext('type') });
