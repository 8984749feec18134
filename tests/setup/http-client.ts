/**
 * A browser as a real server sees it over HTTP: a device id of its own and a cookie jar. For
 * tests that drive a server process (`startServerProcess`) rather than `app.inject`.
 */
export class HttpDevice {
  private cookies = new Map<string, string>();
  deviceId = '';

  private constructor(private readonly baseUrl: string) {}

  static async register(baseUrl: string): Promise<HttpDevice> {
    const device = new HttpDevice(baseUrl);
    const res = await device.request('POST', '/api/device/register', {
      fingerprint: 'Mozilla/5.0 (test)|1280x800|24|en-GB|0|Linux',
    });
    device.deviceId = ((await res.json()) as { deviceId: string }).deviceId;
    return device;
  }

  async request(method: string, url: string, body?: object): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        ...(this.deviceId ? { 'x-device-id': this.deviceId } : {}),
        ...(cookie ? { cookie } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (value) this.cookies.set(name!, value);
      else this.cookies.delete(name!);
    }
    return res;
  }

  async post<T = Record<string, unknown>>(
    url: string,
    body: object = {},
  ): Promise<{ status: number; body: T }> {
    const res = await this.request('POST', url, body);
    return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
  }
}
