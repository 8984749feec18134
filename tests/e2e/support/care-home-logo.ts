import type { Page } from '@playwright/test';

/** The drawn logo's size: wider than tall, as most homes' logos are. */
export const CARE_HOME_LOGO = { width: 192, height: 96 } as const;

/** A care home's logo as a PNG, drawn by the page's own canvas: a house and the home's initials. */
export async function drawCareHomeLogo(page: Page, initials: string): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ({ initials, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const draw = canvas.getContext('2d')!;
      draw.fillStyle = '#ffffff';
      draw.fillRect(0, 0, width, height);
      draw.fillStyle = '#1b48c8';
      draw.beginPath();
      draw.moveTo(12, 46);
      draw.lineTo(48, 14);
      draw.lineTo(84, 46);
      draw.closePath();
      draw.fill();
      draw.fillRect(22, 46, 52, 36);
      draw.fillStyle = '#ffffff';
      draw.fillRect(41, 60, 14, 22);
      draw.fillStyle = '#1b48c8';
      draw.font = 'bold 40px sans-serif';
      draw.fillText(initials, 96, 66);
      return canvas.toDataURL('image/png');
    },
    { initials, ...CARE_HOME_LOGO },
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}
