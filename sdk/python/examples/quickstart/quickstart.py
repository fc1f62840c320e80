"""Asks svc one question and prints the assistant's reply as one JSON object
{"body","source","lowConfidence","sources"}.

    SVC_BASE_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_pk_... python3 sdk/python/examples/quickstart/quickstart.py "Do you ship to Germany?"
"""

import json
import os
import sys

try:
    from svc_client import Client, SvcError
except ImportError:  # run from the repository without installing the package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    from svc_client import Client, SvcError


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: quickstart.py QUESTION (with SVC_BASE_URL and SVC_API_KEY set)", file=sys.stderr)
        return 2
    try:
        client = Client(os.environ.get("SVC_BASE_URL", ""), os.environ.get("SVC_API_KEY", ""))
        res = client.send(sys.argv[1])
    except (SvcError, ValueError, OSError) as err:
        print(err, file=sys.stderr)
        return 1
    reply = res.reply
    print(json.dumps({"body": reply.body, "source": reply.source, "lowConfidence": res.low_confidence,
                      "sources": [{"title": s.title, "url": s.url} for s in reply.sources]}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
