"""Dry runs with the official Python client: create, replace, patch and delete a ConfigMap with
dry_run='All', and a dry-run Service create. Prints one JSON object with what the server answered
and what it stored afterwards.

Usage: python3 dry_run.py <server-url> <token> <ca-file>
"""
import json

from ck_client import api_client_from_argv
from kubernetes import client
from kubernetes.client.rest import ApiException

api = client.CoreV1Api(api_client_from_argv())
ns = "default"


def stored(name):
    try:
        return api.read_namespaced_config_map(name, ns).to_dict()
    except ApiException as e:
        return e.status


out = {}
new = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-dry-new"), data={"k": "v"})
created = api.create_namespaced_config_map(ns, new, dry_run="All")
out["created"] = {"name": created.metadata.name, "uid": bool(created.metadata.uid), "rv": created.metadata.resource_version}
out["created_stored"] = stored("py-dry-new")

api.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-dry"), data={"k": "v"}))
before = stored("py-dry")
live = api.read_namespaced_config_map("py-dry", ns)
live.data = {"k": "replaced"}
out["replaced"] = api.replace_namespaced_config_map("py-dry", ns, live, dry_run="All").data
out["patched"] = api.patch_namespaced_config_map("py-dry", ns, {"data": {"k": "patched"}}, dry_run="All").data
api.delete_namespaced_config_map("py-dry", ns, dry_run="All")
out["unchanged"] = stored("py-dry") == before
try:
    api.create_namespaced_config_map(ns, new, dry_run="Bogus")
    out["bogus"] = 0
except ApiException as e:
    out["bogus"] = e.status

svc = client.V1Service(
    metadata=client.V1ObjectMeta(name="py-dry-svc"),
    spec=client.V1ServiceSpec(cluster_ip="10.0.0.99", ports=[client.V1ServicePort(port=80)]),
)
out["svc_ip"] = api.create_namespaced_service(ns, svc, dry_run="All").spec.cluster_ip
svc.metadata.name = "py-real-svc"
out["real_svc_ip"] = api.create_namespaced_service(ns, svc).spec.cluster_ip
print(json.dumps(out))
