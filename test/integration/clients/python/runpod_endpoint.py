"""runpod-python (`runpod` on PyPI) against the emulator, as a team's code calls it.

Usage: python runpod_endpoint.py PLAN_JSON

PLAN_JSON names the emulator's job API base (`<origin>/v2`), the account's key, a wrong key and the endpoints to use
(see runpod-python.test.ts). Every scenario runs at once in its own thread, through runpod.Endpoint (requests) or
runpod.AsyncioEndpoint (aiohttp); the script prints one JSON object, each scenario's result or the error it raised
({"error": "<type>: <message>"}), on its last line, and exits 0 unless the plan itself is unusable.
"""

import asyncio
import json
import logging
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import requests
import runpod
from runpod.http_client import ClientSession

PLAN = json.loads(sys.argv[1])
# The documented settings: the key, and the job API's base URL (RUNPOD_ENDPOINT_BASE_URL sets the same at import).
runpod.api_key = PLAN["key"]
runpod.endpoint_url_base = PLAN["base"]
ENDPOINTS = PLAN["endpoints"]


class Retries(logging.Handler):
    """Keeps what urllib3 logs when runpod-python's session retries a request (a read timeout, a 429, a reset)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


RETRIES = Retries()
logging.getLogger("urllib3.connectionpool").addHandler(RETRIES)


def wait_for_status(job, wanted, timeout=30.0):
    """Polls job.status() until it reads `wanted`; returns every status seen, in order."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = job.status()
        if not seen or seen[-1] != status:
            seen.append(status)
        if status == wanted:
            return seen
        time.sleep(0.2)
    raise TimeoutError(f"job {job.job_id} never reached {wanted}: saw {seen}")


def run_sync():
    endpoint = runpod.Endpoint(ENDPOINTS["echo"])
    return {
        "bare": endpoint.run_sync({"prompt": "hello"}),
        "wrapped": endpoint.run_sync({"input": {"prompt": "wrapped"}}, timeout=60),
    }


def run_status_output():
    job = runpod.Endpoint(ENDPOINTS["sleep"]).run({"seconds": 2})
    first = job.status()
    output = job.output(timeout=60)
    return {"id": job.job_id, "first": first, "output": output, "last": job.status()}


def stream():
    job = runpod.Endpoint(ENDPOINTS["stream"]).run({"chunks": 4, "delayMs": 300, "prompt": "two words"})
    return {"id": job.job_id, "chunks": list(job.stream()), "last": job.status()}


def stream_slow_first_chunk():
    # The first chunk comes 22 s after the job starts (a model loading, say): the client polls /stream meanwhile, and
    # gives each request 10 s.
    job = runpod.Endpoint(ENDPOINTS["stream"]).run({"chunks": 1, "delayMs": 22000})
    started = time.monotonic()
    chunks = list(job.stream())
    return {"chunks": chunks, "seconds": round(time.monotonic() - started, 1)}


def cancel():
    job = runpod.Endpoint(ENDPOINTS["sleep"]).run({"seconds": 600})
    seen = wait_for_status(job, "IN_PROGRESS")
    answer = job.cancel()
    return {"id": job.job_id, "seen": seen, "cancel": answer, "after": job.status()}


def health_and_purge():
    endpoint = runpod.Endpoint(ENDPOINTS["queue"])
    ids = [endpoint.run({"n": n}).job_id for n in range(3)]
    before = endpoint.health()
    purged = endpoint.purge_queue()
    return {"ids": ids, "before": before, "purged": purged, "after": endpoint.health()}


def wrong_key():
    try:
        runpod.Endpoint(ENDPOINTS["echo"], api_key=PLAN["wrongKey"]).run_sync({"prompt": "x"})
    except RuntimeError as error:
        return {"raised": "RuntimeError", "message": str(error)}
    return {"raised": None}


def unknown_endpoint():
    try:
        runpod.Endpoint(ENDPOINTS["missing"]).run({"prompt": "x"})
    except requests.HTTPError as error:
        return {"raised": "HTTPError", "status": error.response.status_code}
    return {"raised": None}


async def asyncio_endpoint():
    async with ClientSession() as session:
        echo = runpod.AsyncioEndpoint(ENDPOINTS["echo"], session)
        job = await echo.run({"prompt": "async"})
        output = await job.output(timeout=60)
        status = await job.status()
        streaming = await runpod.AsyncioEndpoint(ENDPOINTS["stream"], session).run({"chunks": 2, "delayMs": 200})
        chunks = [chunk async for chunk in streaming.stream()]
        sleeper = await runpod.AsyncioEndpoint(ENDPOINTS["sleep"], session).run({"seconds": 600})
        while await sleeper.status() == "IN_QUEUE":
            await asyncio.sleep(0.2)
        cancelled = await sleeper.cancel()
        queue = runpod.AsyncioEndpoint(ENDPOINTS["asyncQueue"], session)
        await queue.run({"n": 1})
        await queue.run({"n": 2})
        before = await queue.health()
        purged = await queue.purge_queue()
        return {
            "output": output,
            "status": status,
            "chunks": chunks,
            "cancel": cancelled,
            "healthBefore": before,
            "purged": purged,
        }


SCENARIOS = {
    "runSync": run_sync,
    "runStatusOutput": run_status_output,
    "stream": stream,
    "streamSlowFirstChunk": stream_slow_first_chunk,
    "cancel": cancel,
    "healthAndPurge": health_and_purge,
    "wrongKey": wrong_key,
    "unknownEndpoint": unknown_endpoint,
    "asyncioEndpoint": lambda: asyncio.run(asyncio_endpoint()),
}


def attempt(scenario):
    try:
        return SCENARIOS[scenario]()
    except Exception as error:  # pylint: disable=broad-except
        return {"error": f"{type(error).__name__}: {error}"}


with ThreadPoolExecutor(max_workers=len(SCENARIOS)) as pool:
    futures = {name: pool.submit(attempt, name) for name in SCENARIOS}
    results = {name: future.result() for name, future in futures.items()}
results["retries"] = RETRIES.messages
print(json.dumps(results))
