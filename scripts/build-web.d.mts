export const WEB_SOURCES: string[];
export const WEB_ENTRY: string;
export function replaceDirectory(next: string, live: string): void;
export function buildWeb(): void;
export function buildWebUnlessCurrent(): Promise<void>;
