/**
 * SecurityContextConstraints rules of OpenShift origin 3.9/3.10
 * pkg/security/apis/security/validation (ValidateSecurityContextConstraints and its helpers),
 * and the strategy-type defaults of pkg/security/apis/security/v1 SetDefaults_SCC.
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import { invalidValue, notSupported, required } from '../../api/validation/field-errors.js';
import { goSlice, invalidGo } from '../../api/validation/resources.js';
import type { SecurityContextConstraints } from './securitycontextconstraints.schema.js';

type IdRange = NonNullable<NonNullable<SecurityContextConstraints['fsGroup']>['ranges']>[number];

/** Upstream SetDefaults_SCC: fsGroup and supplementalGroups default to RunAsAny. */
export function defaultSecurityContextConstraints(scc: SecurityContextConstraints): void {
  scc.fsGroup = { ...(scc.fsGroup ?? {}) };
  scc.fsGroup.type ||= 'RunAsAny';
  scc.supplementalGroups = { ...(scc.supplementalGroups ?? {}) };
  scc.supplementalGroups.type ||= 'RunAsAny';
}

/** Upstream validateIDRanges: min and max non-negative, min <= max. */
function validateIdRanges(ranges: IdRange[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (ranges ?? []).forEach((r, i) => {
    const min = r.min ?? 0;
    const max = r.max ?? 0;
    if (min < 0) errs.push(invalidValue(`${path}.ranges[${i}].min`, min, 'min cannot be negative'));
    if (max < 0) errs.push(invalidValue(`${path}.ranges[${i}].max`, max, 'max cannot be negative'));
    if (min > max)
      errs.push(
        invalidGo(
          `${path}.ranges[${i}].min`,
          `security.IDRange{Min:${min}, Max:${max}}`,
          'min cannot be greater than max',
        ),
      );
  });
  return errs;
}

/** Upstream validateSCCCapsAgainstDrops: a capability may not be both allowed/added and dropped. */
function capsAgainstDrops(
  drops: string[] | null | undefined,
  caps: string[] | null | undefined,
  path: string,
): FieldError[] {
  if (drops === undefined || drops === null) return [];
  return (caps ?? [])
    .filter((c) => drops.includes(c))
    .map((c) => invalidValue(path, c, `capability is listed in ${path} and requiredDropCapabilities`));
}

/**
 * Upstream ValidateSecurityContextConstraints (create and update): priority non-negative;
 * runAsUser, seLinuxContext, fsGroup and supplementalGroups strategies of known types, with
 * valid uid and ranges; no capability both required-dropped and added or allowed, and no drops
 * with a `*` allowance; `none` alone in volumes; allowedFlexVolumes only with flexVolume or `*`.
 */
export function validateSecurityContextConstraints(scc: SecurityContextConstraints): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof scc.priority === 'number' && scc.priority < 0)
    errs.push(invalidValue('priority', scc.priority, 'priority cannot be negative'));

  const runAsUserType = scc.runAsUser?.type ?? '';
  if (!['MustRunAs', 'MustRunAsNonRoot', 'RunAsAny', 'MustRunAsRange'].includes(runAsUserType)) {
    errs.push(
      invalidValue(
        'runAsUser.type',
        runAsUserType,
        'invalid strategy type.  Valid values are MustRunAs, MustRunAsNonRoot, MustRunAsRange, RunAsAny',
      ),
    );
  }
  const uid = scc.runAsUser?.uid;
  if (typeof uid === 'number' && uid < 0) errs.push(invalidValue('runAsUser.uid', uid, 'uid cannot be negative'));

  const seLinuxType = scc.seLinuxContext?.type ?? '';
  if (!['MustRunAs', 'RunAsAny'].includes(seLinuxType)) {
    errs.push(
      invalidValue('seLinuxContext.type', seLinuxType, 'invalid strategy type.  Valid values are MustRunAs, RunAsAny'),
    );
  }

  const fsGroupType = scc.fsGroup?.type ?? '';
  if (fsGroupType !== 'MustRunAs' && fsGroupType !== 'RunAsAny')
    errs.push(notSupported('fsGroup.type', fsGroupType, ['MustRunAs', 'RunAsAny']));
  errs.push(...validateIdRanges(scc.fsGroup?.ranges, 'fsGroup'));

  const supplementalType = scc.supplementalGroups?.type ?? '';
  if (supplementalType !== 'MustRunAs' && supplementalType !== 'RunAsAny') {
    errs.push(notSupported('supplementalGroups.type', supplementalType, ['MustRunAs', 'RunAsAny']));
  }
  errs.push(...validateIdRanges(scc.supplementalGroups?.ranges, 'supplementalGroups'));

  errs.push(...capsAgainstDrops(scc.requiredDropCapabilities, scc.defaultAddCapabilities, 'defaultAddCapabilities'));
  errs.push(...capsAgainstDrops(scc.requiredDropCapabilities, scc.allowedCapabilities, 'allowedCapabilities'));
  if ((scc.allowedCapabilities ?? []).includes('*') && (scc.requiredDropCapabilities ?? []).length > 0) {
    errs.push(
      invalidGo(
        'requiredDropCapabilities',
        goSlice('core.Capability', scc.requiredDropCapabilities ?? undefined),
        'required capabilities must be empty when all capabilities are allowed by a wildcard',
      ),
    );
  }

  const volumes = scc.volumes ?? [];
  const allowsFlex = volumes.some((v) => v === 'flexVolume' || v === '*');
  if (volumes.includes('none') && volumes.length > 1) {
    errs.push(
      invalidGo('volumes', goSlice('security.FSType', volumes), "if 'none' is specified, no other values are allowed"),
    );
  }
  const flex = scc.allowedFlexVolumes ?? [];
  if (flex.length) {
    if (allowsFlex) {
      flex.forEach((f, i) => {
        if (!f.driver) errs.push(required(`allowedFlexVolumes[${i}].driver`, 'must specify a driver'));
      });
    } else {
      const shown = `[]security.AllowedFlexVolume{${flex.map((f) => `security.AllowedFlexVolume{Driver:${JSON.stringify(f.driver ?? '')}}`).join(', ')}}`;
      errs.push(
        invalidGo(
          'allowedFlexVolumes',
          shown,
          "volumes does not include 'flexVolume' or '*', so no flex volumes are allowed",
        ),
      );
    }
  }
  return errs;
}
