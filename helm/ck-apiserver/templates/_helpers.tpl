{{/* The chart name, or nameOverride. */}}
{{- define "ck-apiserver.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The resource name prefix: fullnameOverride, or release-name without repeating the chart name; at most 63 characters. */}}
{{- define "ck-apiserver.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A name made of the full name and a suffix, still at most 63 characters. */}}
{{- define "ck-apiserver.suffixed" -}}
{{- $suffix := index . 1 -}}
{{- printf "%s-%s" (include "ck-apiserver.fullname" (index . 0) | trunc (int (sub 62 (len $suffix))) | trimSuffix "-") $suffix -}}
{{- end -}}

{{- define "ck-apiserver.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "ck-apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "ck-apiserver.selectorLabels" -}}
app.kubernetes.io/name: {{ include "ck-apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: apiserver
{{- end -}}

{{- define "ck-apiserver.etcdSelectorLabels" -}}
app.kubernetes.io/name: {{ include "ck-apiserver.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: etcd
{{- end -}}

{{- define "ck-apiserver.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "ck-apiserver.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The bundled etcd's StatefulSet name: at most 52 characters, so that its pods' controller-revision-hash label fits 63. */}}
{{- define "ck-apiserver.etcdName" -}}{{ printf "%s-etcd" (include "ck-apiserver.fullname" . | trunc 47 | trimSuffix "-") }}{{- end -}}
{{- define "ck-apiserver.tokenSecret" -}}{{ default (include "ck-apiserver.suffixed" (list . "auth")) .Values.auth.existingSecret }}{{- end -}}
{{- define "ck-apiserver.serviceAccountKeySecret" -}}{{ default (include "ck-apiserver.suffixed" (list . "sa-key")) .Values.auth.serviceAccountKeySecret }}{{- end -}}
{{- define "ck-apiserver.tlsSecret" -}}{{ default (include "ck-apiserver.suffixed" (list . "tls")) .Values.tls.existingSecret }}{{- end -}}

{{/* The etcd client URLs the replicas use: every bundled member, or etcd.servers. */}}
{{- define "ck-apiserver.etcdServers" -}}
{{- if .Values.etcd.bundled -}}
{{- $name := include "ck-apiserver.etcdName" . -}}
{{- $urls := list -}}
{{- range $i := until (int .Values.etcd.replicas) -}}
{{- $urls = append $urls (printf "http://%s-%d.%s-peer.%s.svc:2379" $name $i $name $.Release.Namespace) -}}
{{- end -}}
{{- join "," $urls -}}
{{- else -}}
{{- .Values.etcd.servers -}}
{{- end -}}
{{- end -}}

{{/*
The generated credentials, made once per render (memoised in .Values) and kept across upgrades:
an existing Secret of this release is read back with lookup. Returns YAML:
tokensCsv, token (admin), metricsToken, caCrt, tlsCrt, tlsKey.
*/}}
{{- define "ck-apiserver.credentials" -}}
{{- if not (hasKey .Values "__credentials") -}}
{{- $creds := dict -}}
{{- $auth := lookup "v1" "Secret" .Release.Namespace (include "ck-apiserver.tokenSecret" .) -}}
{{- if and $auth $auth.data (hasKey $auth.data "tokens.csv") -}}
{{- $_ := set $creds "tokensCsv" (index $auth.data "tokens.csv" | b64dec) -}}
{{- $_ := set $creds "token" (index $auth.data "token" | default "" | b64dec) -}}
{{- $_ := set $creds "metricsToken" (index $auth.data "metrics-token" | default "" | b64dec) -}}
{{- else -}}
{{- $admin := randAlphaNum 40 -}}
{{- $metrics := randAlphaNum 40 -}}
{{- $_ := set $creds "tokensCsv" (printf "%s,admin,admin,\"system:masters\"\n%s,prometheus,prometheus,\"system:monitoring\"\n" $admin $metrics) -}}
{{- $_ := set $creds "token" $admin -}}
{{- $_ := set $creds "metricsToken" $metrics -}}
{{- end -}}
{{- $sa := lookup "v1" "Secret" .Release.Namespace (include "ck-apiserver.serviceAccountKeySecret" .) -}}
{{- if and $sa $sa.data (hasKey $sa.data "sa.key") -}}
{{- $_ := set $creds "saKey" (index $sa.data "sa.key" | b64dec) -}}
{{- else -}}
{{- $_ := set $creds "saKey" (genPrivateKey "rsa") -}}
{{- end -}}
{{- $tls := lookup "v1" "Secret" .Release.Namespace (include "ck-apiserver.tlsSecret" .) -}}
{{- if and $tls $tls.data (hasKey $tls.data "tls.crt") -}}
{{- $_ := set $creds "tlsCrt" (index $tls.data "tls.crt" | b64dec) -}}
{{- $_ := set $creds "tlsKey" (index $tls.data "tls.key" | b64dec) -}}
{{- $_ := set $creds "caCrt" (index $tls.data "ca.crt" | default "" | b64dec) -}}
{{- else -}}
{{- $svc := include "ck-apiserver.fullname" . -}}
{{- $ns := .Release.Namespace -}}
{{- $dns := list $svc (printf "%s.%s" $svc $ns) (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.cluster.local" $svc $ns) "localhost" -}}
{{- $ips := list "127.0.0.1" -}}
{{- range .Values.tls.extraSANs -}}
{{- if regexMatch "^[0-9.]+$|:" . -}}{{- $ips = append $ips . -}}{{- else -}}{{- $dns = append $dns . -}}{{- end -}}
{{- end -}}
{{- $ca := genCA "ck-apiserver-ca" (int .Values.tls.validityDays) -}}
{{- $cert := genSignedCert $svc $ips $dns (int .Values.tls.validityDays) $ca -}}
{{- $_ := set $creds "tlsCrt" $cert.Cert -}}
{{- $_ := set $creds "tlsKey" $cert.Key -}}
{{- $_ := set $creds "caCrt" $ca.Cert -}}
{{- end -}}
{{- $_ := set .Values "__credentials" $creds -}}
{{- end -}}
{{- toYaml (get .Values "__credentials") -}}
{{- end -}}
