{{- define "ck-apiserver.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "ck-apiserver.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "ck-apiserver.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: apiserver
{{- end -}}

{{- define "ck-apiserver.etcdServers" -}}
{{- if .Values.etcd.bundled -}}
{{- printf "http://%s-etcd:2379" (include "ck-apiserver.fullname" .) -}}
{{- else -}}
{{- .Values.etcd.servers -}}
{{- end -}}
{{- end -}}

{{- define "ck-apiserver.tokenSecret" -}}
{{- if .Values.existingTokenSecret -}}{{ .Values.existingTokenSecret }}{{- else -}}{{ include "ck-apiserver.fullname" . }}-tokens{{- end -}}
{{- end -}}
