import { describe, expect, it } from 'vitest';
import { describeBrowser, describeUserAgent } from '../../src/server/lib/user-agent';

const UA = {
  chromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  firefoxWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
};

describe('the names devices are shown by', () => {
  it('say the browser and the device or system, as a family would recognise it', () => {
    expect(describeUserAgent(UA.chromeLinux).deviceName).toBe('Chrome on Linux');
    expect(describeUserAgent(UA.safariIpad).deviceName).toBe('Safari on iPad');
    expect(describeUserAgent(UA.safariMac).deviceName).toBe('Safari on macOS');
    expect(describeUserAgent(UA.chromeAndroid).deviceName).toBe('Chrome on Android');
    expect(describeUserAgent(UA.firefoxWindows).deviceName).toBe('Firefox on Windows');
  });

  it('never fail on a missing, blank or unknown user agent', () => {
    expect(describeUserAgent(undefined).deviceName).toBe('Unknown browser');
    expect(describeUserAgent('   ').deviceName).toBe('Browser on unknown system');
    expect(describeBrowser('')).toBeNull();
    expect(describeBrowser('curl/8.5.0')).toBeNull();
    expect(describeBrowser(UA.firefoxWindows)).toBe('Firefox on Windows');
  });
});
