export const SERVER_ENTRY: string;
export const SERVER_SOURCES: string[];
export function isBuildStale(output: string, sources: string[]): boolean;
export function buildServer(): Promise<void>;
export function buildServerUnlessCurrent(): Promise<void>;
export function bundleLikeServer(entry: string, outfile: string): Promise<void>;
