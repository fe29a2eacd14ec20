"""Drive ck-apiserver's groups beyond core with the official Python client: a Deployment
(create, read, scale through its /scale subresource, list), a Job, a Lease taken and renewed
with its resourceVersion, a PodDisruptionBudget and an Ingress. Prints one JSON object.

Usage: python3 apps_flow.py <server-url> <token> <ca-file>
"""
import json

from ck_client import api_client_from_argv
from kubernetes import client

api_client = api_client_from_argv()
apps = client.AppsV1Api(api_client)
batch = client.BatchV1Api(api_client)
coordination = client.CoordinationV1Api(api_client)
policy = client.PolicyV1Api(api_client)
networking = client.NetworkingV1Api(api_client)
ns = "default"
labels = {"app": "py-web"}

template = client.V1PodTemplateSpec(
    metadata=client.V1ObjectMeta(labels=labels),
    spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.27")]),
)
created = apps.create_namespaced_deployment(
    ns,
    client.V1Deployment(
        metadata=client.V1ObjectMeta(name="py-web"),
        spec=client.V1DeploymentSpec(selector=client.V1LabelSelector(match_labels=labels), template=template),
    ),
)
scaled = apps.patch_namespaced_deployment_scale("py-web", ns, {"spec": {"replicas": 4}})
read = apps.read_namespaced_deployment("py-web", ns)
listed = [d.metadata.name for d in apps.list_namespaced_deployment(ns, label_selector="").items]

job = batch.create_namespaced_job(
    ns,
    client.V1Job(
        metadata=client.V1ObjectMeta(name="py-job"),
        spec=client.V1JobSpec(
            template=client.V1PodTemplateSpec(
                spec=client.V1PodSpec(
                    restart_policy="Never", containers=[client.V1Container(name="c", image="busybox")]
                )
            )
        ),
    ),
)

lease = coordination.create_namespaced_lease(
    ns,
    client.V1Lease(
        metadata=client.V1ObjectMeta(name="py-lock"),
        spec=client.V1LeaseSpec(holder_identity="a", lease_duration_seconds=15),
    ),
)
lease.spec.holder_identity = "b"
renewed = coordination.replace_namespaced_lease("py-lock", ns, lease)
try:
    coordination.replace_namespaced_lease("py-lock", ns, lease)  # the old resourceVersion
    stale = 200
except client.rest.ApiException as e:
    stale = e.status

pdb = policy.create_namespaced_pod_disruption_budget(
    ns,
    client.V1PodDisruptionBudget(
        metadata=client.V1ObjectMeta(name="py-pdb"),
        spec=client.V1PodDisruptionBudgetSpec(min_available=1, selector=client.V1LabelSelector(match_labels=labels)),
    ),
)
ingress = networking.create_namespaced_ingress(
    ns,
    client.V1Ingress(
        metadata=client.V1ObjectMeta(name="py-ing"),
        spec=client.V1IngressSpec(
            default_backend=client.V1IngressBackend(
                service=client.V1IngressServiceBackend(name="py-web", port=client.V1ServiceBackendPort(number=80))
            )
        ),
    ),
)
print(
    json.dumps(
        {
            "strategy": created.spec.strategy.type,
            "scaled": scaled.spec.replicas,
            "replicas": read.spec.replicas,
            "generation": read.metadata.generation,
            "listed": listed,
            "job_backoff": job.spec.backoff_limit,
            "holder": renewed.spec.holder_identity,
            "stale": stale,
            "pdb": pdb.spec.min_available,
            "ingress_port": ingress.spec.default_backend.service.port.number,
        }
    )
)
