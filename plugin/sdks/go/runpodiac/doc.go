// Pulumi resources, policy pack, typed client and local emulator for RunPod serverless GPU infrastructure
package runpodiac
