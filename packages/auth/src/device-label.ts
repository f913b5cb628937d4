// A human label for the device behind a user agent, as shown in the session list and the
// new-sign-in e-mail: "Chrome 120 on macOS", "Safari 17 on iOS (iPhone)". Parsing is bowser's
// (a maintained user-agent database); a client it does not know (curl, scripts, the CLI) is shown
// by its own user agent, shortened.
import Bowser from 'bowser';

const RAW_MAX = 80;
export const UNKNOWN_DEVICE = 'Unknown device';

export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim();
  if (!ua) return UNKNOWN_DEVICE;
  const parsed = Bowser.parse(ua);
  const browser = parsed.browser.name ? [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ') : '';
  // The OS name only: browsers freeze its version in the user agent (macOS 10.15.7, Windows NT 10.0).
  const os = parsed.os.name ?? '';
  const model = parsed.platform.model ? ` (${parsed.platform.model})` : '';
  if (browser && os) return `${browser} on ${os}${model}`;
  if (browser || os) return `${browser || os}${model}`;
  return ua.length > RAW_MAX ? `${ua.slice(0, RAW_MAX - 1)}…` : ua;
}
