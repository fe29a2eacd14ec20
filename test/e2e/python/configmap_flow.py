"""Drive ck-apiserver with the official Python client: create, list, patch, delete a ConfigMap
and watch ADDED/MODIFIED/DELETED for it. Prints one JSON object with what it saw.

Usage: python3 configmap_flow.py <server-url> <token> <ca-file>
"""
import json
import threading
import time

from ck_client import api_client_from_argv
from kubernetes import client, watch

api = client.CoreV1Api(api_client_from_argv())
ns = "default"
name = "py-cm"
seen = []


def watcher():
    w = watch.Watch()
    for ev in w.stream(api.list_namespaced_config_map, ns, timeout_seconds=20):
        obj = ev["object"]
        if obj.metadata.name == name:
            seen.append([ev["type"], obj.metadata.resource_version, dict(obj.data or {})])
        if ev["type"] == "DELETED" and obj.metadata.name == name:
            w.stop()


t = threading.Thread(target=watcher)
t.start()
time.sleep(1.0)

created = api.create_namespaced_config_map(ns, {"metadata": {"name": name, "labels": {"from": "python"}}, "data": {"k": "v"}})
listed = api.list_namespaced_config_map(ns, label_selector="from=python")
patched = api.patch_namespaced_config_map(name, ns, [{"op": "replace", "path": "/data/k", "value": "patched"}])
status = api.delete_namespaced_config_map(name, ns)
missing = None
try:
    api.read_namespaced_config_map(name, ns)
except client.rest.ApiException as e:
    missing = e.status
t.join(30)

print(json.dumps({
    "created_rv": created.metadata.resource_version,
    "listed": [i.metadata.name for i in listed.items],
    "list_rv": listed.metadata.resource_version,
    "patched": patched.data,
    "delete_status": status.status if hasattr(status, "status") else None,
    "missing": missing,
    "events": seen,
}))
