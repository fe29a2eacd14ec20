/**
 * Which of the leader's controllers run, from `--controllers` (upstream
 * kube-controller-manager's `--controllers`: "A list of controllers to enable. '*' enables all
 * on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the
 * controller named 'foo'"). A name given both ways is disabled, as upstream's IsControllerEnabled
 * checks the disabling form first.
 */

/**
 * Whether controller `name` runs under `flag` (the flag's items; absent = `['*']`).
 * `onByDefault`: whether `*` includes it.
 */
export function controllerEnabled(flag: readonly string[] | undefined, name: string, onByDefault: boolean): boolean {
  const items = flag ?? ['*'];
  if (items.includes(`-${name}`)) return false;
  if (items.includes(name)) return true;
  return items.includes('*') && onByDefault;
}
