export declare const SYSTEM_CHROMIUM: string;
export declare function findChromium(): { path: string; source: string } | null;
export declare const HOW_TO_GET_CHROMIUM: string;
export declare const PLAYWRIGHT_DISABLED_FEATURES: string[];
export declare const DISABLE_FEATURES_SWITCH: string;
