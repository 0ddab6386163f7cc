"""An S3 server for the deploy tests: moto's server mode (a real S3 API implementation)
on 127.0.0.1, with signature checking on, one bucket and two IAM users, whose keys are
written to a file for the test:

    python3 s3_server.py PORT BUCKET KEYS_OUT

KEYS_OUT gets two lines, "writer ACCESS SECRET" (may do anything in S3) and
"reader ACCESS SECRET" (may only read: its uploads are refused with AccessDenied).

The test reads the bucket back, and puts a foreign object in it, with the writer's key:

    python3 s3_server.py dump PORT BUCKET ACCESS SECRET OUT_DIR   (objects as files, and
        OUT_DIR.types.json: key -> Content-Type)
    python3 s3_server.py put PORT BUCKET ACCESS SECRET KEY TEXT
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


def client(port, access, secret):
    return boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                        aws_access_key_id=access, aws_secret_access_key=secret)


def dump(port, bucket, access, secret, out):
    s3 = client(port, access, secret)
    types = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for item in page.get("Contents", []):
            key = item["Key"]
            response = s3.get_object(Bucket=bucket, Key=key)
            types[key] = response["ContentType"]
            path = os.path.join(out, key)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(response["Body"].read())
    os.makedirs(out, exist_ok=True)
    with open(out.rstrip("/") + ".types.json", "w") as f:
        json.dump(types, f)


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6])
    elif sys.argv[1] == "put":
        client(int(sys.argv[2]), sys.argv[4], sys.argv[5]).put_object(Bucket=sys.argv[3], Key=sys.argv[6], Body=sys.argv[7].encode())
    else:
        main()
