import { useEffect, useState } from 'react';

/**
 * A QR code of `text` as an image address, drawn here in the browser: a code it carries never
 * goes to another service. Null until drawn (the library loads on first use).
 */
export function useQrCode(text: string): string | null {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    void import('qrcode')
      .then((QRCode) => QRCode.toDataURL(text, { margin: 1, width: 240 }))
      .then((url) => {
        if (isCurrent) setImage(url);
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [text]);
  return image;
}
