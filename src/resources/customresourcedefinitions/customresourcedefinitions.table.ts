/**
 * `kubectl get customresourcedefinitions` columns: upstream 1.33 serves CRDs with the default
 * table convertor (k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition etcd.go,
 * rest.NewDefaultTableConvertor): NAME and CREATED AT, the creation time as a date cell.
 */
import { DEFAULT_PRINTER, type TablePrinter } from '../../api/table.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';

export const customResourceDefinitionPrinter: TablePrinter<CustomResourceDefinition> = DEFAULT_PRINTER;
