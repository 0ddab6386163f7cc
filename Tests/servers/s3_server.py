"""An S3 server for the deploy tests: moto's server mode (a real S3 API implementation)
on 127.0.0.1, with signature checking on, one bucket and two IAM users, whose keys are
written to a file for the test:

    python3 s3_server.py PORT BUCKET KEYS_OUT

KEYS_OUT gets two lines, "writer ACCESS SECRET" (may do anything in S3) and
"reader ACCESS SECRET" (may only read: its uploads are refused with AccessDenied).
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned (another test's `isobar` output) must not stay open here.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import signal

signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

import json
import sys
import threading
import time

# moto checks signatures and policies only after this many requests, made here to set up.
SETUP_REQUESTS = 7
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = str(SETUP_REQUESTS)
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

import boto3  # noqa: E402  (after the environment is set)
from moto.server import ThreadedMotoServer  # noqa: E402


def policy(actions):
    return json.dumps({"Version": "2012-10-17",
                       "Statement": [{"Effect": "Allow", "Action": actions, "Resource": "*"}]})


def main():
    port, bucket, keys_out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    session = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup", aws_secret_access_key="setup")
    iam = boto3.client("iam", **session)
    lines = []
    for user, actions in [("writer", "s3:*"), ("reader", ["s3:GetObject", "s3:ListBucket"])]:
        iam.create_user(UserName=user)
        iam.put_user_policy(UserName=user, PolicyName="site", PolicyDocument=policy(actions))
        key = iam.create_access_key(UserName=user)["AccessKey"]
        lines.append(f"{user} {key['AccessKeyId']} {key['SecretAccessKey']}")
    boto3.client("s3", **session).create_bucket(Bucket=bucket)
    with open(keys_out + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.rename(keys_out + ".tmp", keys_out)
    threading.Event().wait()


if __name__ == "__main__":
    main()
