// The <parascope-mfu> mode that runs a model, accelerator and GPU count given by attributes (a planned run).
export const MFU_CUSTOM = 'custom';
