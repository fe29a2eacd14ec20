"""A list-then-watch loop with the official Python client, the way controllers written in Python
keep a cache: watch from the list's resourceVersion, re-watch from the last event's, and relist
on 410. Stops when it sees the ConfigMap named by --sentinel; prints its cache and counters.

Usage: python3 informer_loop.py <server-url> <token> <ca-file> <namespace> <sentinel>
"""
import json
import sys
import time

from ck_client import api_client_from_argv
from kubernetes import client, watch
from kubernetes.client.rest import ApiException

ns, sentinel = sys.argv[4:6]
api = client.CoreV1Api(api_client_from_argv())
stats = {"lists": 0, "watches": 0, "expired": 0, "events": 0}


def relist():
    stats["lists"] += 1
    lst = api.list_namespaced_config_map(ns)
    return {i.metadata.name: (i.data or {}).get("n") for i in lst.items}, lst.metadata.resource_version


cache, rv = relist()
deadline = time.time() + 120
done = sentinel in cache
while not done and time.time() < deadline:
    stats["watches"] += 1
    try:
        for ev in watch.Watch().stream(api.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=5):
            obj = ev["object"]
            stats["events"] += 1
            rv = obj.metadata.resource_version
            if ev["type"] == "DELETED":
                cache.pop(obj.metadata.name, None)
            else:
                cache[obj.metadata.name] = (obj.data or {}).get("n")
            if obj.metadata.name == sentinel:
                done = True
                break
    except ApiException as e:
        if e.status != 410:
            raise
        stats["expired"] += 1
        cache, rv = relist()
        done = sentinel in cache

print(json.dumps({"cache": cache, "stats": stats}))
