"""The PyPI `openai` client against an emulated vLLM endpoint, as a team's code calls it.

Usage: python openai_client.py PLAN_JSON

PLAN_JSON names the endpoint's OpenAI base URL (`<origin>/v2/<endpoint_id>/openai/v1`), the account's key, a wrong key,
the base URL of an endpoint that does not exist and the model (see openai-python.test.ts). The scenarios run one after
the other with OpenAI (sync) and one with AsyncOpenAI; the script prints one JSON object, each scenario's result or
the error it raised ({"error": "<type>: <message>"}), on its last line.
"""

import asyncio
import json
import sys

import openai

PLAN = json.loads(sys.argv[1])
MODEL = PLAN["model"]


def client(base_url=PLAN["baseUrl"], api_key=PLAN["key"]):
    # No retries: each call is one request, one job.
    return openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=60)


def models():
    listed = client().models.list()
    return {"ids": [m.id for m in listed.data], "first": listed.data[0].model_dump()}


def chat():
    messages = [{"role": "user", "content": "please say hello to the world"}]
    full = client().chat.completions.create(model=MODEL, messages=messages)
    cut = client().chat.completions.create(model=MODEL, messages=messages, max_tokens=2)
    return {
        "object": full.object,
        "message": full.choices[0].message.model_dump(exclude_none=True),
        "finish": full.choices[0].finish_reason,
        "usage": full.usage.model_dump(exclude_none=True),
        "cut": {"content": cut.choices[0].message.content, "finish": cut.choices[0].finish_reason},
    }


def chat_stream():
    stream = client().chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "one two three"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = [chunk.model_dump(exclude_none=True) for chunk in stream]
    return {
        "objects": sorted({c["object"] for c in chunks}),
        "text": "".join((c["choices"][0]["delta"].get("content") or "") for c in chunks if c["choices"]),
        "firstRole": chunks[0]["choices"][0]["delta"].get("role"),
        "finish": [c["choices"][0].get("finish_reason") for c in chunks if c["choices"]][-1],
        "last": chunks[-1],
    }


def completions():
    prompt = " ".join(f"w{i}" for i in range(20))
    done = client().completions.create(model=MODEL, prompt=prompt)
    streamed = client().completions.create(model=MODEL, prompt="a b c", max_tokens=5, stream=True)
    return {
        "object": done.object,
        "text": done.choices[0].text,
        "finish": done.choices[0].finish_reason,
        "usage": done.usage.model_dump(exclude_none=True),
        "streamed": "".join(chunk.choices[0].text for chunk in streamed if chunk.choices),
    }


def failure(call):
    try:
        call()
    except openai.APIStatusError as error:
        return {"raised": type(error).__name__, "status": error.status_code, "body": error.body}
    return {"raised": None}


def unknown_model():
    messages = [{"role": "user", "content": "hi"}]
    return {
        "plain": failure(lambda: client().chat.completions.create(model="gpt-4o", messages=messages)),
        "streamed": failure(lambda: list(client().chat.completions.create(model="gpt-4o", messages=messages, stream=True))),
    }


def wrong_key_and_unknown_endpoint():
    return {
        "wrongKey": failure(lambda: client(api_key=PLAN["wrongKey"]).models.list()),
        "unknownEndpoint": failure(lambda: client(base_url=PLAN["unknownBaseUrl"]).models.list()),
    }


async def async_stream():
    async with openai.AsyncOpenAI(base_url=PLAN["baseUrl"], api_key=PLAN["key"], max_retries=0) as aclient:
        stream = await aclient.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "alpha beta"}], stream=True
        )
        text = ""
        async for chunk in stream:
            if chunk.choices:
                text += chunk.choices[0].delta.content or ""
        listed = await aclient.models.list()
        return {"text": text, "ids": [m.id for m in listed.data]}


SCENARIOS = {
    "models": models,
    "chat": chat,
    "chatStream": chat_stream,
    "completions": completions,
    "unknownModel": unknown_model,
    "failures": wrong_key_and_unknown_endpoint,
    "asyncStream": lambda: asyncio.run(async_stream()),
}

results = {}
for name, scenario in SCENARIOS.items():
    try:
        results[name] = scenario()
    except Exception as error:  # pylint: disable=broad-except
        results[name] = {"error": f"{type(error).__name__}: {error}"}
print(json.dumps(results))
