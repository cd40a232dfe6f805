"""boto3 against a data center's S3-compatible API of the emulator, as a team's script calls it.

Usage: python s3_boto3.py PLAN_JSON

PLAN_JSON names the endpoint URL (`<origin>/s3api-<dc>`), the data center (the region), the volume (the bucket), the
S3 key, a work folder and the emulator's PutObject limit (see aws-s3-clients.test.ts). Each scenario runs in turn; the
script prints one JSON object, each scenario's result or the error it raised ({"error": "<code>: <message>"}), on
its last line.
"""

import hashlib
import json
import os
import sys
import urllib.error
import urllib.request

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import ClientError

PLAN = json.loads(sys.argv[1])
BUCKET = PLAN["bucket"]
s3 = boto3.client(
    "s3",
    endpoint_url=PLAN["endpointUrl"],
    region_name=PLAN["region"],
    aws_access_key_id=PLAN["accessKeyId"],
    aws_secret_access_key=PLAN["secretAccessKey"],
    # Path-style, one attempt per call (a refusal shows as it came); boto3's default checksums stay on.
    config=Config(s3={"addressing_style": "path"}, signature_version="s3v4", retries={"max_attempts": 1, "mode": "standard"}),
)


def refused(call):
    try:
        call()
    except ClientError as e:
        return {"code": e.response["Error"]["Code"], "status": e.response["ResponseMetadata"]["HTTPStatusCode"]}
    return {"code": None}


def upload():
    put = s3.put_object(Bucket=BUCKET, Key="boto/hello.txt", Body=b"hello from boto3")
    return {"etag": put["ETag"], "md5": '"%s"' % hashlib.md5(b"hello from boto3").hexdigest()}


def multipart():
    path = os.path.join(PLAN["workDir"], "boto-big.bin")
    data = bytes(range(256)) * (11 * PLAN["putObjectLimit"] // 256 + 7)
    with open(path, "wb") as f:
        f.write(data)
    too_big = refused(lambda: s3.put_object(Bucket=BUCKET, Key="boto/too-big.bin", Body=data))
    chunk = PLAN["putObjectLimit"] // 2
    s3.upload_file(path, BUCKET, "boto/big.bin", Config=TransferConfig(multipart_threshold=chunk, multipart_chunksize=chunk, max_concurrency=4))
    head = s3.head_object(Bucket=BUCKET, Key="boto/big.bin")
    body = s3.get_object(Bucket=BUCKET, Key="boto/big.bin")["Body"].read()
    return {"tooBig": too_big, "size": head["ContentLength"], "etag": head["ETag"], "same": body == data}


def list_get_head():
    listed = s3.list_objects_v2(Bucket=BUCKET, Prefix="boto/")
    got = s3.get_object(Bucket=BUCKET, Key="boto/hello.txt")["Body"].read().decode()
    head = s3.head_object(Bucket=BUCKET, Key="boto/hello.txt")
    return {"keys": [o["Key"] for o in listed.get("Contents", [])], "body": got, "size": head["ContentLength"]}


def copy_delete():
    s3.copy_object(Bucket=BUCKET, Key="boto/copy.txt", CopySource={"Bucket": BUCKET, "Key": "boto/hello.txt"})
    copied = s3.get_object(Bucket=BUCKET, Key="boto/copy.txt")["Body"].read().decode()
    s3.delete_object(Bucket=BUCKET, Key="boto/copy.txt")
    gone = refused(lambda: s3.head_object(Bucket=BUCKET, Key="boto/copy.txt"))
    return {"copied": copied, "afterDelete": gone}


def refusals():
    url = s3.generate_presigned_url("get_object", Params={"Bucket": BUCKET, "Key": "boto/hello.txt"}, ExpiresIn=300)
    try:
        urllib.request.urlopen(url)
        presigned = {"status": 200}
    except urllib.error.HTTPError as e:
        presigned = {"status": e.code, "code": "NotImplemented" if b"<Code>NotImplemented</Code>" in e.read() else None}
    return {
        "deleteObjects": refused(lambda: s3.delete_objects(Bucket=BUCKET, Delete={"Objects": [{"Key": "boto/hello.txt"}]})),
        "createBucket": refused(lambda: s3.create_bucket(Bucket="boto-new-volume")),
        "presigned": presigned,
        "stillThere": s3.head_object(Bucket=BUCKET, Key="boto/hello.txt")["ContentLength"],
    }


def wrong_secret():
    other = boto3.client(
        "s3",
        endpoint_url=PLAN["endpointUrl"],
        region_name=PLAN["region"],
        aws_access_key_id=PLAN["accessKeyId"],
        aws_secret_access_key="rps_not_the_secret",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1, "mode": "standard"}),
    )
    return refused(lambda: other.list_objects_v2(Bucket=BUCKET))


results = {}
for name, scenario in [
    ("upload", upload),
    ("multipart", multipart),
    ("listGetHead", list_get_head),
    ("copyDelete", copy_delete),
    ("refusals", refusals),
    ("wrongSecret", wrong_secret),
]:
    try:
        results[name] = scenario()
    except ClientError as e:
        results[name] = {"error": "%s: %s" % (e.response["Error"]["Code"], e.response["Error"].get("Message"))}
    except Exception as e:  # noqa: BLE001 - every failure is a result the test shows
        results[name] = {"error": "%s: %s" % (type(e).__name__, e)}
print(json.dumps(results))
